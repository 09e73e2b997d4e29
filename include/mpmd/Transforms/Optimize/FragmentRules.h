//===- FragmentRules.h - Fragment identities and user rules -----*- C++ -*-===//
//
// How users name fragments in scheduling and merging rules, with upstream
// Shardy:MPMD's text grammar (used in pass options and by the JAX API):
//
//   FragmentInfo(origins=["f","g"(1)],stage=1,call_counter=0,
//                split_type=kKeepTransferred,mesh_name="m1")
//   FragmentMergeRule(sources=[FragmentInfo(...),FragmentInfo(...)],
//                     target=FragmentInfo(...))
//   FragmentScheduleRule(ordered_fragments=[FragmentInfo(...)->FragmentInfo(...)])
//
// In a FragmentInfo, `origins` comes first; the other fields are optional and
// may come in any order. Spaces between tokens are accepted; printing emits
// none. Names are double-quoted; `\"` and `\\` escape inside them.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_OPTIMIZE_FRAGMENTRULES_H
#define MPMD_TRANSFORMS_OPTIMIZE_FRAGMENTRULES_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Transforms/Common/PassOptions.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/Diagnostics.h"

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd {

/// A named computation a fragment came from, with its transpose count
/// (0 = forward, 1 = backward).
struct FragmentOrigin {
  std::string computationName;
  int64_t transposeCount = 0;

  auto operator<=>(const FragmentOrigin &other) const = default;
};

/// Which half of a split backward fragment (`mpmd-split-bwd-fragments`).
enum class SplitFragmentType {
  /// `split_keep_transferred`: computes the transferred results.
  kKeepTransferred,
  /// `split_drop_transferred`: the rest (the weight gradients).
  kDropTransferred,
};

/// The identity of a fragment in user rules. Two fragments with equal infos
/// cannot be told apart by rules. Equality and ordering cover all fields.
struct FragmentInfo {
  /// Sorted, so that the order of origins in the IR does not matter.
  std::vector<FragmentOrigin> origins;
  std::optional<int64_t> stageId;
  std::optional<int64_t> callCounter;
  std::optional<SplitFragmentType> splitType;
  /// Empty when not given.
  std::string meshName;

  auto operator<=>(const FragmentInfo &other) const = default;
};

/// Merge the `sources` (fragments of one mesh) into one fragment labelled
/// with `target`.
struct FragmentMergeRule {
  std::vector<FragmentInfo> sources;
  FragmentInfo target;

  auto operator<=>(const FragmentMergeRule &other) const = default;
};

/// Run `orderedFragments` (of one mesh) in this order.
struct FragmentScheduleRule {
  std::vector<FragmentInfo> orderedFragments;

  auto operator<=>(const FragmentScheduleRule &other) const = default;
};

/// The info of `fragment`: its origins (sorted), stage, call counter, split
/// type and mesh.
FragmentInfo getFragmentInfo(FragmentOp fragment);

/// Labels `fragment` with `info`: sets its origin (in `info`'s order), stage,
/// call counter and split attributes, removing those `info` lacks. The mesh
/// is not changed (the operand and result types fix it): callers check that
/// `info.meshName` is empty or the fragment's.
void setFragmentInfo(FragmentOp fragment, const FragmentInfo &info);

/// Parsers of the grammar above. The whole text must be consumed; errors say
/// what was expected and at which (0-based) position of the text.
llvm::Expected<FragmentInfo> parseFragmentInfo(llvm::StringRef text);
llvm::Expected<FragmentMergeRule> parseFragmentMergeRule(llvm::StringRef text);
llvm::Expected<FragmentScheduleRule>
parseFragmentScheduleRule(llvm::StringRef text);

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const FragmentOrigin &o);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const FragmentInfo &info);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const FragmentMergeRule &rule);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const FragmentScheduleRule &rule);

/// The same text in diagnostics.
Diagnostic &operator<<(Diagnostic &diag, const FragmentInfo &info);
Diagnostic &operator<<(Diagnostic &diag, const FragmentMergeRule &rule);
Diagnostic &operator<<(Diagnostic &diag, const FragmentScheduleRule &rule);

} // namespace mlir::mpmd

namespace llvm::cl {

// Option parsers: `MpmdOptionParser<T>::parse` is specialized in
// FragmentRules.cpp.
template <>
bool MpmdOptionParser<mlir::mpmd::FragmentInfo>::parse(
    Option &option, StringRef, StringRef arg, mlir::mpmd::FragmentInfo &value);
template <>
bool MpmdOptionParser<mlir::mpmd::FragmentMergeRule>::parse(
    Option &option, StringRef, StringRef arg,
    mlir::mpmd::FragmentMergeRule &value);
template <>
bool MpmdOptionParser<mlir::mpmd::FragmentScheduleRule>::parse(
    Option &option, StringRef, StringRef arg,
    mlir::mpmd::FragmentScheduleRule &value);

template <>
class parser<mlir::mpmd::FragmentInfo>
    : public MpmdOptionParser<mlir::mpmd::FragmentInfo> {
  using MpmdOptionParser::MpmdOptionParser;
};
template <>
class parser<mlir::mpmd::FragmentMergeRule>
    : public MpmdOptionParser<mlir::mpmd::FragmentMergeRule> {
  using MpmdOptionParser::MpmdOptionParser;
};
template <>
class parser<mlir::mpmd::FragmentScheduleRule>
    : public MpmdOptionParser<mlir::mpmd::FragmentScheduleRule> {
  using MpmdOptionParser::MpmdOptionParser;
};

} // namespace llvm::cl

#endif // MPMD_TRANSFORMS_OPTIMIZE_FRAGMENTRULES_H
