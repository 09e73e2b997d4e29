// Verifier errors of interpreter.run_parallel: one case per message.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op programs must list at least one replica}}
  "interpreter.run_parallel"() {programs = []} : () -> ()
  func.return
}

// -----

func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op programs[0] must list at least one partition}}
  "interpreter.run_parallel"() {programs = [[]]} : () -> ()
  func.return
}

// -----

func.func @f() { func.return }
func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op programs[1] has 1 partitions but programs[0] has 2}}
  "interpreter.run_parallel"() {programs = [[@f, @f], [@f]]} : () -> ()
  func.return
}

// -----

func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op programs[0] must be an array of function symbols}}
  "interpreter.run_parallel"() {programs = [@f]} : () -> ()
  func.return
}

// -----

func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op programs[0][1] must be a function symbol, got "f"}}
  "interpreter.run_parallel"() {programs = [[@f, "f"]]} : () -> ()
  func.return
}

// -----

func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op program @missing is not a function of this module}}
  "interpreter.run_parallel"() {programs = [[@missing]]} : () -> ()
  func.return
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @main(%x: tensor<f32>) {
  // expected-error @+1 {{'interpreter.run_parallel' op has 1 inputs but the programs take 2}}
  %r:2 = "interpreter.run_parallel"(%x) {programs = [[@f, @f]]} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @main(%x: tensor<f32>) {
  // expected-error @+1 {{'interpreter.run_parallel' op has 1 results but the programs take 2}}
  %r = "interpreter.run_parallel"(%x, %x) {programs = [[@f], [@f]]} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @main(%x: tensor<f32>, %y: tensor<i32>) {
  // expected-error @+1 {{'interpreter.run_parallel' op inputs #1 has type 'tensor<i32>' but its program takes 'tensor<f32>'}}
  %r:2 = "interpreter.run_parallel"(%x, %y) {programs = [[@f], [@f]]} : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<f32>)
  func.return
}

// -----

func.func @f() { func.return }
func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op infeed[0] must be a function symbol, got 3 : i64}}
  "interpreter.run_parallel"() {programs = [[@f]], infeed = [3]} : () -> ()
  func.return
}

// -----

func.func @f() { func.return }
func.func @feed(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op infeed @feed must take no argument and return one tensor}}
  "interpreter.run_parallel"() {programs = [[@f]], infeed = [@feed]} : () -> ()
  func.return
}
