//===- CollectiveBackend.h - Where an interpreter's collectives go -*- C++ -*-===//
//
// The StableHLO collectives a function runs inside a process grid (see
// ProcessContext in Interpreter.h) need the other processes' tensors. Under
// `interpreter.run_parallel` they meet in an InProcessRendezvous, which lets
// each member evaluate any reduction body itself. The MPMD executor instead
// runs a fragment on the devices of an SPMD mesh and routes its collectives
// through its Transport: a CollectiveBackend is that route, with the
// collectives the Transport implements (reductions limited to ReduceKind).
//
// Participants are the grid's flattened process indices; the backend maps
// them to whatever it moves bytes between. A member calls the collectives of
// a group in the same order as every other member of that group. No MLIR
// here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_COLLECTIVEBACKEND_H
#define MPMD_RUNTIME_COLLECTIVEBACKEND_H

#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace mlir::mpmd::runtime {

class Transport;

class CollectiveBackend {
public:
  virtual ~CollectiveBackend();

  /// Every member gets the elementwise `kind` reduction of all operands.
  virtual llvm::Expected<Tensor> allReduce(llvm::ArrayRef<int64_t> group,
                                           int64_t self, const Tensor &operand,
                                           ReduceKind kind) = 0;
  /// Every member gets the operands concatenated along `dimension`, in
  /// group order.
  virtual llvm::Expected<Tensor> allGather(llvm::ArrayRef<int64_t> group,
                                           int64_t self, const Tensor &operand,
                                           int64_t dimension) = 0;
  /// Member i gets chunk i along `dimension` of the reduction.
  virtual llvm::Expected<Tensor>
  reduceScatter(llvm::ArrayRef<int64_t> group, int64_t self,
                const Tensor &operand, int64_t dimension, ReduceKind kind) = 0;
  /// Member i gets chunk i along `splitDimension` of every operand,
  /// concatenated along `concatDimension` in group order.
  virtual llvm::Expected<Tensor> allToAll(llvm::ArrayRef<int64_t> group,
                                          int64_t self, const Tensor &operand,
                                          int64_t splitDimension,
                                          int64_t concatDimension) = 0;
  /// Each target of `pairs` (source, target) gets its source's operand;
  /// the other members get zeros. `group` lists every member.
  virtual llvm::Expected<Tensor>
  collectivePermute(llvm::ArrayRef<int64_t> group, int64_t self,
                    const Tensor &operand,
                    llvm::ArrayRef<std::pair<int64_t, int64_t>> pairs) = 0;
};

/// The collectives of one SPMD mesh on a Transport: participant p is the
/// transport's device `firstDevice + p` (devices of a mesh are consecutive,
/// see Transport.h). O(1) besides the transport's own cost.
class TransportCollectives final : public CollectiveBackend {
public:
  TransportCollectives(Transport &transport, int64_t firstDevice)
      : transport(transport), firstDevice(firstDevice) {}

  llvm::Expected<Tensor> allReduce(llvm::ArrayRef<int64_t> group, int64_t self,
                                   const Tensor &operand,
                                   ReduceKind kind) override;
  llvm::Expected<Tensor> allGather(llvm::ArrayRef<int64_t> group, int64_t self,
                                   const Tensor &operand,
                                   int64_t dimension) override;
  llvm::Expected<Tensor> reduceScatter(llvm::ArrayRef<int64_t> group,
                                       int64_t self, const Tensor &operand,
                                       int64_t dimension,
                                       ReduceKind kind) override;
  llvm::Expected<Tensor> allToAll(llvm::ArrayRef<int64_t> group, int64_t self,
                                  const Tensor &operand, int64_t splitDimension,
                                  int64_t concatDimension) override;
  llvm::Expected<Tensor>
  collectivePermute(llvm::ArrayRef<int64_t> group, int64_t self,
                    const Tensor &operand,
                    llvm::ArrayRef<std::pair<int64_t, int64_t>> pairs) override;

private:
  std::vector<int64_t> toDevices(llvm::ArrayRef<int64_t> group) const;

  Transport &transport;
  int64_t firstDevice;
};

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_COLLECTIVEBACKEND_H
