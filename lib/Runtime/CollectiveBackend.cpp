//===- CollectiveBackend.cpp - Where an interpreter's collectives go ------===//

#include "mpmd/Runtime/CollectiveBackend.h"

#include "mpmd/Runtime/Transport.h"

namespace mlir::mpmd::runtime {

CollectiveBackend::~CollectiveBackend() = default;

std::vector<int64_t>
TransportCollectives::toDevices(llvm::ArrayRef<int64_t> group) const {
  std::vector<int64_t> devices;
  devices.reserve(group.size());
  for (int64_t participant : group)
    devices.push_back(firstDevice + participant);
  return devices;
}

llvm::Expected<Tensor> TransportCollectives::allReduce(
    llvm::ArrayRef<int64_t> group, int64_t self, const Tensor &operand,
    ReduceKind kind) {
  return transport.allReduce(toDevices(group), firstDevice + self, operand,
                             kind);
}

llvm::Expected<Tensor> TransportCollectives::allGather(
    llvm::ArrayRef<int64_t> group, int64_t self, const Tensor &operand,
    int64_t dimension) {
  return transport.allGather(toDevices(group), firstDevice + self, operand,
                             dimension);
}

llvm::Expected<Tensor> TransportCollectives::reduceScatter(
    llvm::ArrayRef<int64_t> group, int64_t self, const Tensor &operand,
    int64_t dimension, ReduceKind kind) {
  return transport.reduceScatter(toDevices(group), firstDevice + self, operand,
                                 dimension, kind);
}

llvm::Expected<Tensor> TransportCollectives::allToAll(
    llvm::ArrayRef<int64_t> group, int64_t self, const Tensor &operand,
    int64_t splitDimension, int64_t concatDimension) {
  return transport.allToAll(toDevices(group), firstDevice + self, operand,
                            splitDimension, concatDimension);
}

llvm::Expected<Tensor> TransportCollectives::collectivePermute(
    llvm::ArrayRef<int64_t> group, int64_t self, const Tensor &operand,
    llvm::ArrayRef<std::pair<int64_t, int64_t>> pairs) {
  std::vector<PermutePair> devicePairs;
  devicePairs.reserve(pairs.size());
  for (auto [source, target] : pairs)
    devicePairs.emplace_back(firstDevice + source, firstDevice + target);
  return transport.collectivePermute(toDevices(group), firstDevice + self,
                                     operand, devicePairs);
}

} // namespace mlir::mpmd::runtime
