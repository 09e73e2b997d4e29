// Ops without a rule: by design (silently), with a tensor that is not
// statically shaped (silently), or unknown to the registry (a warning, once
// per process for each op name or custom call target).
// RUN: mpmd-opt -sdy-populate-op-sharding-rules -allow-unregistered-dialect -split-input-file -verify-diagnostics %s | FileCheck %s

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @no_rule_by_design(
// CHECK-NOT: sharding_rule
// CHECK-LABEL: func.func private @callee(
func.func @no_rule_by_design(%a: tensor<8xf32>, %p: tensor<i32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %i = stablehlo.iota dim = 0 : tensor<8xf32>
  %s = sdy.constant dense<1.0> : tensor<8xf32>
  %r = sdy.reshard %a <@mesh, [{"x"}]> : tensor<8xf32>
  %b = stablehlo.optimization_barrier %a : tensor<8xf32>
  %id = stablehlo.partition_id : tensor<ui32>
  %t = stablehlo.create_token : !stablehlo.token
  %t2 = stablehlo.after_all %t : !stablehlo.token
  %w = stablehlo.while(%iter = %a) : tensor<8xf32>
    cond {
      %true = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %true : tensor<i1>
    } do {
      stablehlo.return %iter : tensor<8xf32>
    }
  %case = "stablehlo.case"(%p) ({
    stablehlo.return %a : tensor<8xf32>
  }, {
    stablehlo.return %c : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  %call = func.call @callee(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %cc = stablehlo.custom_call @tpu_custom_call(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %log = stablehlo.custom_call @xla.debug.Log(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %a : tensor<8xf32>
}
func.func private @callee(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @not_statically_shaped(
// CHECK-NOT: sharding_rule
// CHECK: return
func.func @not_statically_shaped(%a: tensor<?x4xf32>, %e: tensor<0x4xf32>) {
  %0 = stablehlo.add %a, %a : tensor<?x4xf32>
  // Nothing to shard in a reshape of no elements.
  %1 = stablehlo.reshape %e : (tensor<0x4xf32>) -> tensor<4x0xf32>
  return
}

// -----

// CHECK-LABEL: func.func @unknown(
// CHECK-NOT: sharding_rule
// CHECK: return
func.func @unknown(%p: tensor<i1>, %a: tensor<8xf32>) {
  // expected-warning @+1 {{no sharding rule is known for op 'stablehlo.if': shardings do not propagate through it}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<8xf32>
  }, {
    stablehlo.return %a : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  // The warning for an op name comes once.
  %1 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<8xf32>
  }, {
    stablehlo.return %a : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  // expected-warning @+1 {{no sharding rule is known for op 'test.op': shardings do not propagate through it}}
  %2 = "test.op"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  // expected-warning @+1 {{no sharding rule is known for custom call @my_kernel: shardings do not propagate through it}}
  %3 = stablehlo.custom_call @my_kernel(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %4 = stablehlo.custom_call @my_kernel(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Once per process: the second chunk warns about nothing seen before.
// CHECK-LABEL: func.func @warned_before(
func.func @warned_before(%p: tensor<i1>, %a: tensor<8xf32>) {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<8xf32>
  }, {
    stablehlo.return %a : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  // expected-warning @+1 {{no sharding rule is known for custom call @other_kernel: shardings do not propagate through it}}
  %1 = stablehlo.custom_call @other_kernel(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return
}
