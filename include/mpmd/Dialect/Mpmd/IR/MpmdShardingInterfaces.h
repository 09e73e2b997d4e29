//===- MpmdShardingInterfaces.h - Shardings across MPMD ops ----*- C++ -*-===//
//
// Fragments and loops as sdy data-flow ops, transfers with a sharding rule:
// what lets sharding propagation run over a whole MPMD program.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDSHARDINGINTERFACES_H
#define MPMD_DIALECT_MPMD_IR_MPMDSHARDINGINTERFACES_H

namespace mlir {
class DialectRegistry;
namespace mpmd {

/// Attaches the sdy interface models of `mpmd.fragment`, `mpmd.for` and
/// `mpmd.transfer` when the mpmd dialect loads.
void registerShardingInterfaceModels(DialectRegistry &registry);

} // namespace mpmd
} // namespace mlir

#endif // MPMD_DIALECT_MPMD_IR_MPMDSHARDINGINTERFACES_H
