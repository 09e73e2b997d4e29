//===- InterpreterOps.td - interpreter operations ----------*- tablegen -*-===//
//
// The ops StableHLO's reference interpreter adds to executable tests, outside
// the StableHLO spec: `interpreter.run_parallel` runs a grid of programs as
// the processes of a parallel run (replicas x partitions), so collectives,
// `stablehlo.replica_id` and `stablehlo.partition_id` have a grid to work on.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_INTERPRETER_IR_INTERPRETEROPS_TD
#define MPMD_DIALECT_INTERPRETER_IR_INTERPRETEROPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"

def Interpreter_Dialect : Dialect {
  let name = "interpreter";
  let cppNamespace = "::mlir::interpreter";
  let summary = "Ops of StableHLO's reference interpreter (parallel runs, print, probes).";
}

class Interpreter_Op<string mnemonic, list<Trait> traits = []>
    : Op<Interpreter_Dialect, mnemonic, traits>;

def Interpreter_RunParallelOp : Interpreter_Op<"run_parallel",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs a grid of functions concurrently, one per process.";
  let description = [{
    `programs` is an array (one per replica) of arrays (one per partition)
    of function symbols, every row of the same length: process `(r, p)`
    runs `programs[r][p]`. The inputs are the processes' arguments and the
    results their results, each flattened replica-major (process (0, 0)
    first, then (0, 1), ...), every process taking as many as its function
    has. The optional `infeed` lists functions of no argument returning one
    tensor each, the values `stablehlo.infeed` would consume in order.

    ```mlir
    %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@f, @f]]}
        : (tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
                       ArrayAttr:$programs,
                       OptionalAttr<ArrayAttr>:$infeed);
  let results = (outs Variadic<AnyType>:$results);
  let hasVerifier = 1;
}

def Interpreter_PrintOp : Interpreter_Op<"print"> {
  let summary = "Prints a tensor's type and values to standard output.";
  let description = [{
    `interpreter.print %x : tensor<2xf32>` prints `tensor<2xf32> [1, 2]`
    (one line) when it runs: a debugging aid, checked by nothing.
  }];
  let arguments = (ins AnyTensor:$operand);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def Interpreter_ProbeOp : Interpreter_Op<"probe",
    [AllTypesMatch<["operand", "result"]>]> {
  let summary = "Writes a tensor to a .npy file and returns it.";
  let description = [{
    `%y = interpreter.probe %x, probe_id = "p" : tensor<2xf32>` writes the
    value of `%x` each time it runs, to `<dir>/p_<n>.npy` for its n-th run
    (from 0) in the module, where `<dir>` is the interpreter's probe
    directory (`mpmd interpret --probe-output-dir`), and returns `%x`.
    `check.expect_serialized_eq` compares a value with such a file.
  }];
  let arguments = (ins AnyTensor:$operand, StrAttr:$probe_id);
  let results = (outs AnyTensor:$result);
  let assemblyFormat = [{
    $operand `,` `probe_id` `=` $probe_id attr-dict `:` type($operand)
  }];
  let hasVerifier = 1;
}

#endif // MPMD_DIALECT_INTERPRETER_IR_INTERPRETEROPS_TD
