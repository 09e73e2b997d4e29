// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect \
// RUN:   -mpmd-calls-to-named-computations='assignment=layer1@m1,layer2@m2,block@m1,block_1@m2,stage1@m1' \
// RUN:   | FileCheck %s
// Without names nothing changes.
// RUN: mpmd-opt %s -split-input-file -allow-unregistered-dialect -mpmd-calls-to-named-computations 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=NO-NAMES

// NO-NAMES-LABEL: func.func public @main
// NO-NAMES:         call @layer1(
// NO-NAMES:         call @"transpose(jvp(layer2))"(

// A training step as `jax.jit(train_step).lower().as_text()` prints it when
// the layers are jitted functions: the forward calls return the residuals,
// the backward calls are named after the layer by JAX's transform wrappers.
// @relu is a jitted helper that is no layer: its calls stay, also in the
// copied bodies (printed in the short form there too).
// CHECK-LABEL: func.func public @main
// CHECK-NEXT:    %[[L1:.*]]:2 = mpmd.named_computation<"layer1"> (%arg0, %arg2) (%[[W:.*]]: tensor<8x8xf32>, %[[X:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:      %[[D:.*]] = stablehlo.dot_general %[[X]], %[[W]], contracting_dims = [1] x [0]
// CHECK-NEXT:      %[[R:.*]] = call @relu(%[[D]])
// CHECK-NEXT:      mpmd.return %[[R]], %[[D]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:    } : (tensor<8x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    %[[L2:.*]] = mpmd.named_computation<"layer2"> (%arg1, %[[L1]]#0)
// CHECK:         %[[LOSS:.*]] = call @relu(%[[L2]])
// CHECK-NEXT:    %[[B2:.*]]:2 = mpmd.named_computation<"layer2"(1)> (%arg1, %[[L1]]#0, %[[LOSS]])
// CHECK:         %[[B1:.*]] = mpmd.named_computation<"layer1"(1)> (%arg2, %[[L1]]#1, %[[B2]]#1)
// CHECK:         return %[[LOSS]], %[[B1]], %[[B2]]#0
// The layer functions are gone, the helper stays.
// CHECK-NOT:   func.func private @layer
// CHECK-NOT:   func.func private @"transpose
// CHECK:       func.func private @relu
// CHECK-NOT:   func.func private @layer
// CHECK-NOT:   func.func private @"transpose
module @jit_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<4x8xf32>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<8x8xf32> {jax.result_info = "result[1][0]"}, tensor<8x8xf32> {jax.result_info = "result[1][1]"}) {
    %0:2 = call @layer1(%arg0, %arg2) : (tensor<8x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
    %1 = call @layer2(%arg1, %0#0) : (tensor<8x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = call @relu(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3:2 = call @"transpose(jvp(layer2))"(%arg1, %0#0, %2) : (tensor<8x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>)
    %4 = call @"transpose(jvp(layer1))"(%arg2, %0#1, %3#1) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    return %2, %4, %3#0 : tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func private @layer1(%arg0: tensor<8x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %1 = call @relu(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %1, %0 : tensor<4x8xf32>, tensor<4x8xf32>
  }
  func.func private @relu(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func private @layer2(%arg0: tensor<8x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @"transpose(jvp(layer2))"(%arg0: tensor<8x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>) {
    %0 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    return %0, %1 : tensor<8x8xf32>, tensor<4x8xf32>
  }
  func.func private @"transpose(jvp(layer1))"(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> tensor<8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<4x8xf32>
    %0 = stablehlo.compare  GT, %arg1, %cst,  FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %1 = stablehlo.select %0, %arg2, %cst : tensor<4x8xi1>, tensor<4x8xf32>
    %2 = stablehlo.dot_general %arg0, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}

// -----

// MLIR's symbol table suffixes `_<digits>` when JAX lowers two functions
// under one name; the suffix is dropped, after the wrappers too. An assigned
// name that ends in `_<digits>` itself (block_1) is matched exactly first.
// Without a wrapper, JAX's name stack in the call's location tells the
// backward (`as_text(debug_info=True)`): one `transpose(` there is count 1.
// Upstream's plain-jit form of a named computation is recognized too.
// CHECK-LABEL: func.func @suffixes
// CHECK-NEXT:    mpmd.named_computation<"layer1"> (%arg0)
// CHECK:         mpmd.named_computation<"layer1"(1)> (%{{.*}})
// CHECK:         mpmd.named_computation<"layer2"(1)> (%{{.*}})
// CHECK:         mpmd.named_computation<"block"> (%{{.*}})
// CHECK:         mpmd.named_computation<"block_1"> (%{{.*}})
// CHECK:         mpmd.named_computation<"stage1"> (%{{.*}})
// CHECK:         mpmd.named_computation<"stage1"> (%{{.*}})
// CHECK-NOT:     call
// CHECK:         return
!t = tensor<4xf32>
func.func @suffixes(%x: !t) -> !t {
  %0 = call @layer1_0(%x) : (!t) -> !t
  %1 = call @"transpose(jvp(layer1))_12"(%0) : (!t) -> !t
  %2 = call @layer2_3(%1) : (!t) -> !t loc("jit(train_step)/jit(main)/transpose(jvp(loss))/layer2")
  %3 = call @block(%2) : (!t) -> !t
  %4 = call @block_1(%3) : (!t) -> !t
  %5 = call @partir_named_computation_call_stage1(%4) : (!t) -> !t
  // expected-warning @+1 {{calls of @partir_named_computation_call_stage1 and @partir_named_computation_call_stage1_0 both become named computation 'stage1' with transpose count 0}}
  %6 = call @partir_named_computation_call_stage1_0(%5) : (!t) -> !t
  return %6 : !t
}
func.func private @layer1_0(%a: !t) -> !t {
  return %a : !t
}
func.func private @"transpose(jvp(layer1))_12"(%a: !t) -> !t {
  return %a : !t
}
func.func private @layer2_3(%a: !t) -> !t {
  return %a : !t
}
func.func private @block(%a: !t) -> !t {
  return %a : !t
}
func.func private @block_1(%a: !t) -> !t {
  return %a : !t
}
func.func private @partir_named_computation_call_stage1(%a: !t) -> !t {
  return %a : !t
}
func.func private @partir_named_computation_call_stage1_0(%a: !t) -> !t {
  return %a : !t
}

// -----

!t = tensor<4xf32>
// A layer whose function calls another layer's function gives nested named
// computations (the import then inlines the inner one into the outer one);
// a function called twice gives two computations and goes away. Names that
// only look like a wrapper or a suffix do not match.
// CHECK-LABEL: func.func @nested
// CHECK-NEXT:    %[[A:.*]] = mpmd.named_computation<"layer1"> (%arg0) (%[[X:.*]]: tensor<4xf32>) {
// CHECK-NEXT:      %[[N:.*]] = mpmd.named_computation<"layer2"> (%[[X]]) (%[[Y:.*]]: tensor<4xf32>) {
// CHECK-NEXT:        %[[T:.*]] = stablehlo.tanh %[[Y]]
// CHECK-NEXT:        mpmd.return %[[T]]
// CHECK-NEXT:      }
// CHECK-NEXT:      mpmd.return %[[N]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[B:.*]] = mpmd.named_computation<"layer2"> (%[[A]])
// CHECK:         %[[C:.*]] = call @"vjp(layer2)"(%[[B]])
// CHECK-NEXT:    %[[D:.*]] = call @layer2_x(%[[C]])
// CHECK-NEXT:    %[[E:.*]] = call @"transpose(layer2"(%[[D]])
// CHECK-NEXT:    return %[[E]]
// CHECK-NOT:   func.func private @layer1
// CHECK-NOT:   func.func private @layer2(
func.func @nested(%x: !t) -> !t {
  %0 = call @layer1(%x) : (!t) -> !t
  %1 = call @layer2(%0) : (!t) -> !t
  %2 = call @"vjp(layer2)"(%1) : (!t) -> !t
  %3 = call @layer2_x(%2) : (!t) -> !t
  %4 = call @"transpose(layer2"(%3) : (!t) -> !t
  return %4 : !t
}
func.func private @layer1(%a: !t) -> !t {
  %0 = call @layer2(%a) : (!t) -> !t
  return %0 : !t
}
func.func private @layer2(%a: !t) -> !t {
  %0 = stablehlo.tanh %a : !t
  return %0 : !t
}
func.func private @"vjp(layer2)"(%a: !t) -> !t {
  return %a : !t
}
func.func private @layer2_x(%a: !t) -> !t {
  return %a : !t
}
func.func private @"transpose(layer2"(%a: !t) -> !t {
  return %a : !t
}

// -----

!t = tensor<4xf32>
// Tokens pass through named computations.
// CHECK-LABEL: func.func @token
// CHECK-NEXT:    mpmd.named_computation<"layer1"> (%arg0, %arg1) (%{{.*}}: !stablehlo.token, %{{.*}}: tensor<4xf32>)
func.func @token(%t: !stablehlo.token, %x: !t) -> (!stablehlo.token, !t) {
  %0:2 = call @layer1(%t, %x) : (!stablehlo.token, !t) -> (!stablehlo.token, !t)
  return %0#0, %0#1 : !stablehlo.token, !t
}
func.func private @layer1(%t: !stablehlo.token, %a: !t) -> (!stablehlo.token, !t) {
  return %t, %a : !stablehlo.token, !t
}

// -----

!t = tensor<4xf32>
func.func @public_callee(%x: !t) -> !t {
  // expected-error @+1 {{call of @layer1 cannot become named computation 'layer1': the callee is public}}
  %0 = call @layer1(%x) : (!t) -> !t
  return %0 : !t
}
func.func @layer1(%a: !t) -> !t {
  return %a : !t
}

// -----

!t = tensor<4xf32>
func.func @declaration(%x: !t) -> !t {
  // expected-error @+1 {{call of @layer1 cannot become named computation 'layer1': the callee has no body}}
  %0 = call @layer1(%x) : (!t) -> !t
  return %0 : !t
}
func.func private @layer1(!t) -> !t

// -----

!t = tensor<4xf32>
func.func @several_blocks(%x: !t) -> !t {
  // expected-error @+1 {{call of @layer1 cannot become named computation 'layer1': the callee has 2 blocks}}
  %0 = call @layer1(%x) : (!t) -> !t
  return %0 : !t
}
func.func private @layer1(%a: !t) -> !t {
  "test.br"()[^bb1] : () -> ()
^bb1:
  return %a : !t
}

// -----

!t = tensor<4xf32>
// Recursion through a function that is no layer.
func.func @recursive(%x: !t) -> !t {
  // expected-error @+1 {{call of @layer1 cannot become named computation 'layer1': the callee can call itself}}
  %0 = call @layer1(%x) : (!t) -> !t
  return %0 : !t
}
func.func private @layer1(%a: !t) -> !t {
  %0 = call @helper(%a) : (!t) -> !t
  return %0 : !t
}
func.func private @helper(%a: !t) -> !t {
  // expected-error @+1 {{call of @layer1 cannot become named computation 'layer1': the callee can call itself}}
  %0 = call @layer1(%a) : (!t) -> !t
  return %0 : !t
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{call of @layer2 cannot become named computation 'layer2': operand type 'tensor<*xf32>' is neither a ranked tensor nor a token}}
  %0 = call @layer2(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func private @layer2(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}

// -----

!t = tensor<4xf32>
func.func @unranked_result(%x: !t) -> tensor<*xf32> {
  // expected-error @+1 {{call of @layer2 cannot become named computation 'layer2': result type 'tensor<*xf32>' is neither a ranked tensor nor a token}}
  %0 = call @layer2(%x) : (!t) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func private @layer2(%a: !t) -> tensor<*xf32> {
  %0 = tensor.cast %a : !t to tensor<*xf32>
  return %0 : tensor<*xf32>
}
