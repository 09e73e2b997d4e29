//===- CheckOps.td - check operations ---------------------*- tablegen -*-===//
//
// The assertion ops of StableHLO's executable interpreter tests
// (`check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi64>`). They have no
// results and unknown side effects, so they are never erased; an executor
// evaluates them and reports mismatches.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_CHECK_IR_CHECKOPS_TD
#define MPMD_DIALECT_CHECK_IR_CHECKOPS_TD

include "mlir/IR/OpBase.td"

def Check_Dialect : Dialect {
  let name = "check";
  let cppNamespace = "::mlir::check";
  let summary = "Assertions of executable tests.";
}

class Check_Op<string mnemonic, list<Trait> traits = []>
    : Op<Check_Dialect, mnemonic, traits>;

def Check_FpOrComplexTensor : TensorOf<[AnyFloat, AnyComplex]>;

def Check_ExpectEqOp : Check_Op<"expect_eq", [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Asserts that two tensors are bitwise equal.";
  let description = "`check.expect_eq %a, %b : tensor<2xi32>`.";
  let arguments = (ins AnyTensor:$lhs, AnyTensor:$rhs);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Check_ExpectEqConstOp : Check_Op<"expect_eq_const",
    [AllTypesMatch<["lhs", "value"]>]> {
  let summary = "Asserts that a tensor equals a constant.";
  let description = "`check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi32>`.";
  let arguments = (ins AnyTensor:$lhs, ElementsAttr:$value);
  let assemblyFormat = "$lhs `,` $value attr-dict";
}

def Check_ExpectAlmostEqOp : Check_Op<"expect_almost_eq",
    [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Asserts that two float tensors agree within a tolerance.";
  let description = [{
    `check.expect_almost_eq %a, %b, tolerance = 1.0e-3 : tensor<2xf32>`; the
    tolerance is optional (default 1e-4).
  }];
  let arguments = (ins Check_FpOrComplexTensor:$lhs,
                       Check_FpOrComplexTensor:$rhs,
                       DefaultValuedOptionalAttr<F64Attr, "0.0001">:$tolerance);
  let assemblyFormat = [{
    $lhs `,` $rhs (`,` `tolerance` `=` $tolerance^)? attr-dict `:` type($lhs)
  }];
  let hasVerifier = 1;
}

def Check_ExpectAlmostEqConstOp : Check_Op<"expect_almost_eq_const",
    [AllTypesMatch<["lhs", "value"]>]> {
  let summary = "Asserts that a float tensor is within a tolerance of a constant.";
  let description = [{
    `check.expect_almost_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32>`,
    optionally followed by `, tolerance = 1.0e-3` (default 1e-4).
  }];
  let arguments = (ins Check_FpOrComplexTensor:$lhs, ElementsAttr:$value,
                       DefaultValuedOptionalAttr<F64Attr, "0.0001">:$tolerance);
  let assemblyFormat = [{
    $lhs `,` $value (`,` `tolerance` `=` $tolerance^)? attr-dict
  }];
  let hasVerifier = 1;
}

def Check_ExpectCloseOp : Check_Op<"expect_close",
    [AllTypesMatch<["actual", "expected"]>]> {
  let summary = "Asserts that two float tensors are within a number of ULPs.";
  let description = [{
    `check.expect_close %a, %b, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>`,
    optionally with `, min_ulp_difference = 1` after the maximum.
  }];
  let arguments = (ins Check_FpOrComplexTensor:$actual,
                       Check_FpOrComplexTensor:$expected,
                       I64Attr:$max_ulp_difference,
                       DefaultValuedOptionalAttr<I64Attr, "0">:$min_ulp_difference);
  let assemblyFormat = [{
    $actual `,` $expected `,` `max_ulp_difference` `=` $max_ulp_difference
    (`,` `min_ulp_difference` `=` $min_ulp_difference^)?
    attr-dict `:` type($actual) `,` type($expected)
  }];
  let hasVerifier = 1;
}

def Check_ExpectSerializedEqOp : Check_Op<"expect_serialized_eq"> {
  let summary = "Asserts that a tensor equals what a probe wrote.";
  let description = [{
    `check.expect_serialized_eq %x, probe_id = "p" : tensor<2xf32>` asserts
    that `%x` equals, bit for bit, the value `interpreter.probe` with
    `probe_id = "p"` wrote on its first run; `, iter = n` after the id
    picks its run n (from 0) instead.
  }];
  let arguments = (ins AnyTensor:$expected, StrAttr:$probe_id,
                       DefaultValuedOptionalAttr<I64Attr, "0">:$iter);
  let assemblyFormat = [{
    $expected `,` `probe_id` `=` $probe_id (`,` `iter` `=` $iter^)?
    attr-dict `:` type($expected)
  }];
  let hasVerifier = 1;
}

#endif // MPMD_DIALECT_CHECK_IR_CHECKOPS_TD
