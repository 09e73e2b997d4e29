//===- PassOptions.h - Option types of mpmd passes and pipelines -*- C++ -*-===//
//
// The textual grammars of upstream Shardy:MPMD pass options, as typed values
// with llvm::cl parsers so that they work in `-pass='opt=value'` syntax:
//   assignment:           `f1@m1,f2@m2/1,f3@m1#pinned_host` (name@mesh[#kind][/stage])
//   input/output maps:    `0@m1,1@m2#pinned_host`            (index@mesh[#kind])
//   equisharding pairs:   `0:1` (input index : output index), a list option.
// A trailing comma is accepted in maps. Maps are ordered for determinism.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_COMMON_PASSOPTIONS_H
#define MPMD_TRANSFORMS_COMMON_PASSOPTIONS_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace mlir::mpmd {

/// Where a named computation, tensor, input or output goes: a mesh, an
/// optional memory kind (`m1#pinned_host`) and, for computations, an optional
/// pipeline stage (`m1/2`).
struct MeshAssignment {
  std::string meshName;
  std::optional<std::string> memoryKind;
  std::optional<int64_t> stage;

  bool operator==(const MeshAssignment &other) const = default;
};

/// name → assignment, from `name@mesh[#kind][/stage],...`.
struct UserAssignmentMap {
  std::map<std::string, MeshAssignment> entries;

  bool operator==(const UserAssignmentMap &other) const = default;
  bool empty() const { return entries.empty(); }
};

/// index → assignment, from `0@m1,1@m2#pinned_host`. Stages are not allowed.
struct IndexedAssignmentMap {
  std::map<int64_t, MeshAssignment> entries;

  bool operator==(const IndexedAssignmentMap &other) const = default;
  bool empty() const { return entries.empty(); }
};

/// Input `input` and output `output` of the entry function must end up with
/// the same mesh tensor type (e.g. a parameter and its update), from `in:out`.
struct InputOutputEquishardingConstraint {
  int64_t input = 0;
  int64_t output = 0;

  bool operator==(const InputOutputEquishardingConstraint &other) const = default;
};

/// Parsers returning a message that says what is wrong on failure.
llvm::Expected<UserAssignmentMap> parseUserAssignmentMap(llvm::StringRef text);
llvm::Expected<IndexedAssignmentMap>
parseIndexedAssignmentMap(llvm::StringRef text);
llvm::Expected<InputOutputEquishardingConstraint>
parseInputOutputEquishardingConstraint(llvm::StringRef text);

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const MeshAssignment &a);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const UserAssignmentMap &m);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const IndexedAssignmentMap &m);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const InputOutputEquishardingConstraint &c);

} // namespace mlir::mpmd

namespace llvm::cl {

/// llvm::cl parsers so that the types above can be pass options.
template <typename T>
class MpmdOptionParser : public basic_parser<T> {
public:
  using basic_parser<T>::basic_parser;
  bool parse(Option &option, StringRef, StringRef arg, T &value);
  static void print(raw_ostream &os, const T &value) { os << value; }
  void printOptionDiff(const Option &, const OptionValue<T> &,
                       const OptionValue<T> &, size_t) const {}
  StringRef getValueName() const override { return "value"; }
};

template <>
class parser<mlir::mpmd::UserAssignmentMap>
    : public MpmdOptionParser<mlir::mpmd::UserAssignmentMap> {
  using MpmdOptionParser::MpmdOptionParser;
};
template <>
class parser<mlir::mpmd::IndexedAssignmentMap>
    : public MpmdOptionParser<mlir::mpmd::IndexedAssignmentMap> {
  using MpmdOptionParser::MpmdOptionParser;
};
template <>
class parser<mlir::mpmd::InputOutputEquishardingConstraint>
    : public MpmdOptionParser<mlir::mpmd::InputOutputEquishardingConstraint> {
  using MpmdOptionParser::MpmdOptionParser;
};

extern template class MpmdOptionParser<mlir::mpmd::UserAssignmentMap>;
extern template class MpmdOptionParser<mlir::mpmd::IndexedAssignmentMap>;
extern template class MpmdOptionParser<
    mlir::mpmd::InputOutputEquishardingConstraint>;

} // namespace llvm::cl

#endif // MPMD_TRANSFORMS_COMMON_PASSOPTIONS_H
