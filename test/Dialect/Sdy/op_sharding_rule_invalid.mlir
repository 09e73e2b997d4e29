// Errors of #sdy.op_sharding_rule: syntax, the rule on its own, and the
// rule against the op it is attached to.
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file -verify-diagnostics %s

func.func @bad_symbol(%a: tensor<8xf32>) {
  // expected-error @+1 {{expected factor symbols ('i' to 'z', then 'z_1', 'z_2', ...), got 'a'}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([a])->([a]) {a=8}>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @z_0(%a: tensor<8xf32>) {
  // expected-error @+1 {{expected factor symbols ('i' to 'z', then 'z_1', 'z_2', ...), got 'z_0'}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([z_0])->([i]) {i=8}>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @sizes_out_of_order(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{expected the size of factor 'i' next (sizes are listed in factor order), got 'j'}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {j=4, i=8}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @compound_in_kind(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{expected one factor symbol, got 'ij'}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([]) {i=8, j=4} reduction={ij}>} : (tensor<8x4xf32>) -> tensor<f32>
  return
}

// -----

func.func @kind_twice(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{'reduction' is given twice}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([]) {i=8, j=4} reduction={i} reduction={j}>} : (tensor<8x4xf32>) -> tensor<f32>
  return
}

// -----

func.func @no_mappings() {
  // expected-error @+1 {{an op sharding rule needs at least one operand or result mapping}}
  "test.op"() {sdy.sharding_rule = #sdy.op_sharding_rule<()->()>} : () -> ()
  return
}

// -----

func.func @negative_size(%a: tensor<8xf32>) {
  // expected-error @+1 {{factor 'i' has negative size -8}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=-8}>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @empty_dim(%a: tensor<8xf32>) {
  // expected-error @+1 {{operand 0 dim 0 is mapped to no factor}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([*])->([i]) {i=8}>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @unknown_factor(%a: tensor<8xf32>) {
  // expected-error @+1 {{result 0 dim 1 refers to unknown factor 'j' (the rule has 1 factor)}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i, j]) {i=8}>} : (tensor<8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @factor_twice_in_dim(%a: tensor<64xf32>) {
  // expected-error @+1 {{operand 0 dim 0 lists factor 'i' twice}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([ii])->([i]) {i=8}>} : (tensor<64xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @factor_in_two_dims(%a: tensor<8x8xf32>) {
  // expected-error @+1 {{operand 0 maps factor 'i' to dims 0 and 1}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, i])->([i]) {i=8}>} : (tensor<8x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @size_one_in_compound(%a: tensor<4xf32>) {
  // expected-error @+1 {{operand 0 dim 0 is made of several factors, but factor 'i' has size 1}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=1, j=4}>} : (tensor<4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @unused_factor(%a: tensor<8xf32>) {
  // expected-error @+1 {{factor 'j' is not mapped to any operand or result}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8, j=2}>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @kind_of_unknown_factor(%a: tensor<8xf32>) {
  // expected-error @+1 {{permutation factor 'k' is not a factor of the rule (the rule has 1 factor)}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8} permutation={k}>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @blocked_unknown_factor(%a: tensor<8xf32>) {
  // expected-error @+1 {{blocked_propagation factor 'j' is not a factor of the rule (the rule has 1 factor)}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8} blocked_propagation={j}>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @factor_twice_in_kind(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{factor 'j' is listed twice in need_replication}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={j, j}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @two_kinds(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{factor 'j' is both need_replication and permutation}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={j} permutation={j}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @reduction_in_result(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{reduction factor 'j' is mapped to a result}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} reduction={j}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @not_a_rule(%a: tensor<8xf32>) {
  // expected-error @+1 {{'test.op' op should have a sharding rule attribute of type OpShardingRuleAttr}}
  %0 = "test.op"(%a) {sdy.sharding_rule = 1 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @operand_count(%a: tensor<8xf32>) {
  // expected-error @+1 {{'test.op' op has a sharding rule with 1 operand mappings, but 2 operands}}
  %0 = "test.op"(%a, %a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @result_count(%a: tensor<8xf32>) {
  // expected-error @+1 {{'test.op' op has a sharding rule with 2 result mappings, but 1 results}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [i]) {i=8}>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @dynamic_shape(%a: tensor<?xf32>) {
  // expected-error @+1 {{'test.op' op has a sharding rule mapping operand 0, which is not a statically shaped ranked tensor}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : (tensor<?xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @rank_mismatch(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{'test.op' op has a sharding rule mapping result 0 of rank 2 to 1 dimensions}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=8, j=4}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @compound_size_mismatch(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{'test.op' op has a sharding rule whose factors of result 0 dim 0 multiply to 32, but the dimension has size 30}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=8, j=4}>} : (tensor<8x4xf32>) -> tensor<30xf32>
  return
}

// -----

func.func @compound_size_overflow(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{'test.op' op has a sharding rule whose factors of result 0 dim 0 multiply to more than 64 bits hold, but the dimension has size 32}}
  %0 = "test.op"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=4611686018427387904, j=4}>} : (tensor<8x4xf32>) -> tensor<32xf32>
  return
}
