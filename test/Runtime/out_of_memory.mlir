// A tensor too large to allocate is an error and exit code 1, not a crash.
// RUN: not mpmd interpret %s 2>&1 | FileCheck %s

// CHECK: mpmd runtime: error: out of memory: cannot allocate 4000000000000064 bytes for a tensor
func.func @huge() {
  %x = stablehlo.iota dim = 0 : tensor<1000000x1000000x1000xf32>
  func.return
}
