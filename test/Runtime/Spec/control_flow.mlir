// Control flow, tuples, tokens, composite, async and random numbers: the
// examples of their sections of the StableHLO specification as executable
// checks (where the spec leaves results to the implementation, what it does
// fix).
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// after_all: tokens in, a token out; nothing to check but that it runs, and
// that an op ordered after it sees values computed before.
// CHECK: PASS: @after_all_spec
func.func @after_all_spec() {
  %input0 = "stablehlo.after_all"() : () -> !stablehlo.token
  %input1 = "stablehlo.after_all"() : () -> !stablehlo.token
  %result = "stablehlo.after_all"(%input0, %input1) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
  %pretty = stablehlo.after_all %result, %input0 : !stablehlo.token
  %token = stablehlo.create_token : !stablehlo.token
  func.return
}

// -----

// case: an out-of-range index (-1) runs the last branch.
// CHECK: PASS: @case_spec
func.func @case_spec() {
  %index = stablehlo.constant dense<-1> : tensor<i32>
  %result_branch0 = stablehlo.constant dense<[0, 0]> : tensor<2xi64>
  %result_branch1 = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %result0, %result1 = "stablehlo.case"(%index) ({
    "stablehlo.return"(%result_branch0, %result_branch0) : (tensor<2xi64>, tensor<2xi64>) -> ()
  }, {
    "stablehlo.return"(%result_branch1, %result_branch1) : (tensor<2xi64>, tensor<2xi64>) -> ()
  }) : (tensor<i32>) -> (tensor<2xi64>, tensor<2xi64>)
  check.expect_eq_const %result0, dense<[1, 1]> : tensor<2xi64>
  check.expect_eq_const %result1, dense<[1, 1]> : tensor<2xi64>
  func.return
}

// -----

// CHECK: PASS: @case_in_range_and_past_the_end
func.func @case_in_range_and_past_the_end() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %seven = stablehlo.constant dense<7> : tensor<i32>
  %a = stablehlo.constant dense<10.0> : tensor<f32>
  %b = stablehlo.constant dense<20.0> : tensor<f32>
  %c = stablehlo.constant dense<30.0> : tensor<f32>
  %r0 = "stablehlo.case"(%zero) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %b : tensor<f32>
  }, {
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %r0, dense<10.0> : tensor<f32>
  %r7 = "stablehlo.case"(%seven) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %b : tensor<f32>
  }, {
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %r7, dense<30.0> : tensor<f32>
  func.return
}

// -----

// composite: runs its decomposition.
func.func private @my_op(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.subtract %x, %y : tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: PASS: @composite_spec
func.func @composite_spec() {
  %input0 = stablehlo.constant dense<5.0> : tensor<f32>
  %input1 = stablehlo.constant dense<1.5> : tensor<f32>
  %results = "stablehlo.composite"(%input0, %input1) {
    name = "my_namespace.my_op",
    composite_attributes = {
      my_attribute = "my_value"
    },
    decomposition = @my_op,
    version = 1 : i32
  } : (tensor<f32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %results, dense<3.5> : tensor<f32>
  func.return
}

// -----

// CHECK: PASS: @get_tuple_element_spec
func.func @get_tuple_element_spec() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %b = stablehlo.constant dense<3> : tensor<i64>
  %inner = "stablehlo.tuple"(%b) : (tensor<i64>) -> tuple<tensor<i64>>
  %operand = "stablehlo.tuple"(%a, %inner) : (tensor<2xf64>, tuple<tensor<i64>>) -> tuple<tensor<2xf64>, tuple<tensor<i64>>>
  %result = "stablehlo.get_tuple_element"(%operand) <{index = 0 : i32}> : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tensor<2xf64>
  check.expect_eq_const %result, dense<[1.0, 2.0]> : tensor<2xf64>
  %second = stablehlo.get_tuple_element %operand[1] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  %three = stablehlo.get_tuple_element %second[0] : (tuple<tensor<i64>>) -> tensor<i64>
  check.expect_eq_const %three, dense<3> : tensor<i64>
  func.return
}

// -----

// tuple: the spec's example with tensors in place of its memref.
// CHECK: PASS: @tuple_spec
func.func @tuple_spec() {
  %val0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %val1 = stablehlo.tuple %three : tuple<tensor<i32>>
  %result = "stablehlo.tuple"(%val0, %val1) : (tensor<2xf32>, tuple<tensor<i32>>) -> tuple<tensor<2xf32>, tuple<tensor<i32>>>
  %first = stablehlo.get_tuple_element %result[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<2xf32>
  check.expect_eq_const %first, dense<[1.0, 2.0]> : tensor<2xf32>
  %rest = stablehlo.get_tuple_element %result[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tuple<tensor<i32>>
  %last = stablehlo.get_tuple_element %rest[0] : (tuple<tensor<i32>>) -> tensor<i32>
  check.expect_eq_const %last, dense<3> : tensor<i32>
  func.return
}

// -----

// CHECK: PASS: @if_spec
func.func @if_spec() {
  %result_true_branch = stablehlo.constant dense<10> : tensor<i32>
  %result_false_branch = stablehlo.constant dense<11> : tensor<i32>
  %pred = stablehlo.constant dense<true> : tensor<i1>
  %result = "stablehlo.if"(%pred) ({
    "stablehlo.return"(%result_true_branch) : (tensor<i32>) -> ()
  }, {
    "stablehlo.return"(%result_false_branch) : (tensor<i32>) -> ()
  }) : (tensor<i1>) -> tensor<i32>
  check.expect_eq_const %result, dense<10> : tensor<i32>
  %not = stablehlo.constant dense<false> : tensor<i1>
  %other = "stablehlo.if"(%not) ({
    "stablehlo.return"(%result_true_branch) : (tensor<i32>) -> ()
  }, {
    "stablehlo.return"(%result_false_branch) : (tensor<i32>) -> ()
  }) : (tensor<i1>) -> tensor<i32>
  check.expect_eq_const %other, dense<11> : tensor<i32>
  func.return
}

// -----

// CHECK: PASS: @optimization_barrier_spec
func.func @optimization_barrier_spec() {
  %operand0 = stablehlo.constant dense<0.0> : tensor<f32>
  %operand1 = stablehlo.constant dense<1.0> : tensor<f32>
  %result0, %result1 = "stablehlo.optimization_barrier"(%operand0, %operand1) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  check.expect_eq_const %result0, dense<0.0> : tensor<f32>
  check.expect_eq_const %result1, dense<1.0> : tensor<f32>
  func.return
}

// -----

// Outside a parallel run, the process is (0, 0).
// CHECK: PASS: @replica_id_partition_id_spec
func.func @replica_id_partition_id_spec() {
  %replica = "stablehlo.replica_id"() : () -> tensor<ui32>
  %partition = "stablehlo.partition_id"() : () -> tensor<ui32>
  check.expect_eq_const %replica, dense<0> : tensor<ui32>
  check.expect_eq_const %partition, dense<0> : tensor<ui32>
  func.return
}

// -----

// rng UNIFORM on integers draws from [a, b): the spec's example's values are
// implementation-defined, its range is not.
// CHECK: PASS: @rng_spec
func.func @rng_spec() {
  %a = stablehlo.constant dense<0> : tensor<i32>
  %b = stablehlo.constant dense<2> : tensor<i32>
  %shape = stablehlo.constant dense<[3, 3]> : tensor<2xi64>
  %result = "stablehlo.rng"(%a, %b, %shape) {
    rng_distribution = #stablehlo<rng_distribution UNIFORM>
  } : (tensor<i32>, tensor<i32>, tensor<2xi64>) -> tensor<3x3xi32>
  %lo = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<i32>) -> tensor<3x3xi32>
  %hi = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<i32>) -> tensor<3x3xi32>
  %ge = stablehlo.compare GE, %result, %lo : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  %lt = stablehlo.compare LT, %result, %hi : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  %in = stablehlo.and %ge, %lt : tensor<3x3xi1>
  check.expect_eq_const %in, dense<true> : tensor<3x3xi1>
  func.return
}

// -----

// rng_bit_generator THREE_FRY: the spec's example, bit for bit.
// CHECK: PASS: @rng_bit_generator_spec
func.func @rng_bit_generator_spec() {
  %initial_state = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %output_state, %output = "stablehlo.rng_bit_generator"(%initial_state) {
    rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>
  } : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  check.expect_eq_const %output_state, dense<[1, 6]> : tensor<2xui64>
  check.expect_eq_const %output, dense<[[9236835810183407956, 16087790271692313299], [18212823393184779219, 2658481902456610144]]> : tensor<2x2xui64>
  func.return
}

// -----

// while: the body runs for i = 1 .. 9, so the sum is 9 (the spec lists 10).
// CHECK: PASS: @while_spec
func.func @while_spec() {
  %init_i = stablehlo.constant dense<1> : tensor<i64>
  %init_sum = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %results0, %results1 = "stablehlo.while"(%init_i, %init_sum) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %cond = "stablehlo.compare"(%arg0, %ten) {
        comparison_direction = #stablehlo<comparison_direction LT>
      } : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %cond : tensor<i1>
    }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %new_sum = stablehlo.add %arg1, %one : tensor<i64>
      %new_i = stablehlo.add %arg0, %one : tensor<i64>
      stablehlo.return %new_i, %new_sum : tensor<i64>, tensor<i64>
  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  check.expect_eq_const %results0, dense<10> : tensor<i64>
  check.expect_eq_const %results1, dense<9> : tensor<i64>
  func.return
}

// -----

// A loop that never runs its body returns its operands.
// CHECK: PASS: @while_zero_trips
func.func @while_zero_trips() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = stablehlo.while(%v = %x) : tensor<2xf32>
    cond {
      %f = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %f : tensor<i1>
    } do {
      %d = stablehlo.add %v, %v : tensor<2xf32>
      stablehlo.return %d : tensor<2xf32>
    }
  check.expect_eq_const %r, dense<[1.0, 2.0]> : tensor<2xf32>
  func.return
}

// -----

// async_start / async_done around a slice (the spec's example, an
// all_gather, runs in the collectives' file).
// CHECK: PASS: @async_slice
func.func @async_slice() {
  %arg0 = stablehlo.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %0 = "stablehlo.async_start"(%arg0) ({
    %1 = stablehlo.slice %arg0 [0:1, 1:3] : (tensor<1x3xf32>) -> tensor<1x2xf32>
    "stablehlo.return"(%1) : (tensor<1x2xf32>) -> ()
  }) : (tensor<1x3xf32>) -> !stablehlo.future<tensor<1x2xf32>>
  %2 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<1x2xf32>>) -> tensor<1x2xf32>
  check.expect_eq_const %2, dense<[[2.0, 3.0]]> : tensor<1x2xf32>
  func.return
}
