// The export passes that remove or rename: -sdy-remove-sharding-groups,
// -sdy-sharding-constraint-to-reshard, -sdy-drop-sharding-rules,
// -sdy-remove-propagation-debug-info.
// RUN: mpmd-opt -sdy-remove-sharding-groups %s | FileCheck %s --check-prefix=GROUPS
// RUN: mpmd-opt -sdy-sharding-constraint-to-reshard %s | FileCheck %s --check-prefix=RESHARD
// RUN: mpmd-opt -sdy-drop-sharding-rules %s | FileCheck %s --check-prefix=RULES
// RUN: mpmd-opt -sdy-remove-propagation-debug-info %s | FileCheck %s --check-prefix=DEBUG

sdy.mesh @mesh = <["a"=2]>
// DEBUG-LABEL: func.func @main(
// DEBUG-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
// DEBUG-SAME: -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>, sdy.sharding_origins = {a = "input: 0"}})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>, sdy.propagation_edges = {a = "x"}}) {
  // GROUPS-NOT: sdy.sharding_group
  sdy.sharding_group %x group_id=0 : tensor<8xf32>
  // RESHARD: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"a"}]> {keep = 1 : i64} : tensor<8xf32>
  // RESHARD: stablehlo.negate %[[R]]
  // GROUPS: sdy.sharding_constraint
  %0 = sdy.sharding_constraint %x <@mesh, [{"a"}]> {keep = 1} : tensor<8xf32>
  // RULES: stablehlo.negate %0 {sdy.result_propagation_edges = {}, sdy.sharding_origins = {a = "self"}} : tensor<8xf32>
  // DEBUG: stablehlo.negate %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>, sdy.sharding_origins = {a = "self"}, sdy.result_propagation_edges = {}} : tensor<8xf32>
  // A custom rule stays.
  // RULES: stablehlo.abs %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>}
  %2 = stablehlo.abs %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>} : tensor<8xf32>
  return %2 : tensor<8xf32>
}
