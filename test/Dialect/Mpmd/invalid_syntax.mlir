// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected '>'}}
func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32> memory_kind="device">)

// -----

// expected-error @+1 {{expected 'memory_kind'}}
func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{}]>, memorykind="device">)

// -----

// expected-error @+1 {{expected 'memory_kind'}}
func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>, shardings=<@mesh, [{}]>>)

// -----

// expected-error @+1 {{topology must have at least one mesh}}
func.func private @f() attributes {topology = #mpmd.topology<>}

// -----

// expected-error @+1 {{duplicate mesh name in topology: "m1"}}
func.func private @f() attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m1": <["y"=2]>>>}

// -----

// expected-error @+1 {{mesh name "m1@x" may not contain '@' or '#'}}
func.func private @f() attributes {topology = #mpmd.topology<<"m1@x": <["x"=2]>>>}

// -----

func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown reduction type 'sum'; expected none, add, max, min, mul, or or and}}
  %0 = mpmd.reduce<sum> %arg0 : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) {
  // expected-error @+1 {{expected a #sdy.sharding, got "x"}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=["x"]> (%arg0) (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
  return
}

// -----

func.func @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) {
  // expected-error @+1 {{expected 'stage', 'in_shardings' or 'out_shardings', got 'stages'}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"], stages=1> (%arg0) (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
  return
}

// -----

func.func @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) {
  // expected-error @+1 {{expected 'origin'}}
  %0 = mpmd.fragment<mesh="m1", stage=1> (%arg0) (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
  return
}

// -----

// expected-error @+1 {{type `mesh_tensr` in dialect `mpmd`}}
func.func private @f(%arg0: !mpmd.mesh_tensr<"m1", tensor<4xf32>>)

// -----

func.func @f() {
  // expected-error @+1 {{custom op 'mpmd.frgment' is unknown}}
  mpmd.frgment
  return
}

// -----

// expected-error @+1 {{mesh tensor needs a statically shaped tensor, got 'tensor<?x4xf32>'}}
func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<?x4xf32>>)

// -----

// expected-error @+1 {{mesh tensor needs a non-empty mesh name}}
func.func private @f(%arg0: !mpmd.mesh_tensor<"", tensor<4xf32>>)

// -----

// 2^62 f32 elements: 2^68 bits, more than any size computation can hold.
// expected-error @+1 {{tensor type 'tensor<4611686018427387904xf32>' is too large: its size in bits does not fit in 64 bits}}
func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4611686018427387904xf32>>)
