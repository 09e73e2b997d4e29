// Export options that keep the program for a later partitioner cannot be
// combined with the ones that partition it now.
// RUN: not mpmd-opt -sdy-export-pipeline='avoid-export-for-partitioning=true enable-insert-explicit-collectives=true' %s 2>&1 | FileCheck %s --check-prefix=COLL
// RUN: not mpmd-opt -sdy-export-pipeline='avoid-export-for-partitioning=true enable-per-instruction-partitioning=true' %s 2>&1 | FileCheck %s --check-prefix=PER-OP
// RUN: not mpmd-opt -sdy-propagation-pipeline='avoid-export-for-partitioning=true enable-insert-explicit-collectives=true' %s 2>&1 | FileCheck %s --check-prefix=COLL

// COLL: error: avoid-export-for-partitioning keeps the program for a later partitioner, so it cannot be combined with enable-insert-explicit-collectives
// PER-OP: error: avoid-export-for-partitioning keeps the program for a later partitioner, so it cannot be combined with enable-per-instruction-partitioning

func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
