// Bad input to mpmd run: a clear error on stderr and a non-zero exit code
// (mpmd_exit_codes.test checks which), never a crash ('not' fails on a
// crash). Input files come from @make_inputs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mpmd run %s --function make_inputs --outputs %t

func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xi32>) -> tensor<2x3xf32> {
  func.return %a : tensor<2x3xf32>
}

func.func @make_inputs() -> (tensor<2x3xf32>, tensor<3xi32>, tensor<3xi64>, tensor<3x2xf32>) {
  %0 = stablehlo.constant dense<1.0> : tensor<2x3xf32>
  %1 = stablehlo.constant dense<2> : tensor<3xi32>
  %2 = stablehlo.constant dense<3> : tensor<3xi64>
  %3 = stablehlo.constant dense<4.0> : tensor<3x2xf32>
  func.return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<3xi32>, tensor<3xi64>, tensor<3x2xf32>
}

// RUN: mpmd run %s --inputs %t/output_0.npy,%t/output_1.npy | FileCheck %s --check-prefix=GOOD
// GOOD: output 0: tensor<2x3xf32> min 1 max 1 mean 1

// Missing and extra inputs.
// RUN: not mpmd run %s 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: mpmd run: error: @main takes 2 argument(s): give --inputs A.npy,... or --random-inputs SEED
// RUN: not mpmd run %s --inputs %t/output_0.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: mpmd run: error: expected 2 input(s), one per argument, got 1
// RUN: not mpmd run %s --inputs %t/output_0.npy,%t/output_1.npy,%t/output_1.npy 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: mpmd run: error: expected 2 input(s), one per argument, got 3
// RUN: not mpmd run %s --inputs= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: mpmd run: error: expected 2 input(s), one per argument, got 0

// Wrong dtype and shape, naming the argument.
// RUN: not mpmd run %s --inputs %t/output_0.npy,%t/output_2.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: mpmd run: error: argument 1: expected tensor<3xi32>, got tensor<3xi64> from {{.*}}output_2.npy
// RUN: not mpmd run %s --inputs %t/output_3.npy,%t/output_1.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: mpmd run: error: argument 0: expected tensor<2x3xf32>, got tensor<3x2xf32> from {{.*}}output_3.npy

// Unreadable and corrupt files.
// RUN: not mpmd run %s --inputs %t/absent.npy,%t/output_1.npy 2>&1 | FileCheck %s --check-prefix=ABSENT
// ABSENT: mpmd run: error: {{.*}}absent.npy: cannot read: {{[Nn]}}o such file or directory
// RUN: printf 'not an array' > %t/text.npy
// RUN: not mpmd run %s --inputs %t/output_0.npy,%t/text.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: mpmd run: error: {{.*}}text.npy: not a .npy file (it does not start with "\x93NUMPY")
// RUN: head -c 130 %t/output_0.npy > %t/truncated.npy
// RUN: not mpmd run %s --inputs %t/truncated.npy,%t/output_1.npy 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: mpmd run: error: {{.*}}truncated.npy: truncated data: shape (2, 3) of '<f4' needs 24 bytes of data, the file holds 2

// Seeds.
// RUN: not mpmd run %s --random-inputs -1 2>&1 | FileCheck %s --check-prefix=SEED
// SEED: mpmd run: error: --random-inputs expects an unsigned integer seed (got '-1')
// RUN: not mpmd run %s --random-inputs 1 --inputs %t/output_0.npy 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: mpmd run: error: give --inputs or --random-inputs, not both

// Functions that do not exist or cannot run.
// RUN: not mpmd run %s --function nope 2>&1 | FileCheck %s --check-prefix=NOT-FOUND
// NOT-FOUND: mpmd run: error: no function @nope with a body in {{.*}}mpmd_run_errors.mlir
// RUN: not mpmd run %s --function declaration 2>&1 | FileCheck %s --check-prefix=DECLARATION
// DECLARATION: mpmd run: error: no function @declaration with a body in
func.func private @declaration(tensor<2xf32>) -> tensor<2xf32>

// RUN: not mpmd run %s --function unsupported --random-inputs 0 2>&1 | FileCheck %s --check-prefix=OP
// OP: mpmd_run_errors.mlir:[[@LINE+3]]:8: error: 'stablehlo.custom_call' target @no_such_target is not supported by the interpreter
// OP-NOT: output
func.func @unsupported(%x: tensor<2xf32>) -> tensor<ui32> {
  %p = stablehlo.custom_call @no_such_target() : () -> tensor<ui32>
  func.return %p : tensor<ui32>
}

// RUN: not mpmd run %s --function dynamic --random-inputs 0 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: mpmd_run_errors.mlir:[[@LINE+1]]:20: error: the interpreter supports only statically shaped ranked tensors, not 'tensor<?xf32>'
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  func.return %x : tensor<?xf32>
}

// MPMD programs go to the MPMD executor, which runs @main only
// (mpmd_run_executor*.test run them).
// RUN: not mpmd run %s --function mpmd_program --random-inputs 0 2>&1 | FileCheck %s --check-prefix=MPMD
// MPMD: mpmd run: error: the MPMD executor runs @main, not @mpmd_program
func.func @mpmd_program(%x: tensor<2xf32>) -> tensor<2xf32>
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  func.return %x : tensor<2xf32>
}

// Outputs that cannot be written.
// RUN: not mpmd run %s --function make_inputs --outputs %t/output_0.npy/sub 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS: mpmd run: error: --outputs '{{.*}}output_0.npy/sub' cannot be written: '{{.*}}output_0.npy' is not a directory
// OUTPUTS-NOT: output

// Command lines.
// RUN: not mpmd run 2>&1 | FileCheck %s --check-prefix=NO-FILE
// NO-FILE: mpmd run: error: no input file; see 'mpmd run --help'
// RUN: not mpmd run %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=NO-MODULE
// NO-MODULE: mpmd run: error: cannot open input file '{{.*}}missing.mlir'
// RUN: not mpmd run %s --seed 1 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: mpmd run: error: unknown option '--seed'; see 'mpmd run --help'
// RUN: mpmd run --help | FileCheck %s --check-prefix=HELP
// HELP: usage: mpmd run FILE.mlir [--function NAME] (--inputs A.npy,B.npy | --random-inputs SEED)
// HELP: [--config CONFIG.json [--validate [--tolerance T]]]
// HELP: --device-memory N
