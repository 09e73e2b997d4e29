//===- InlineAnywhere.h - Inliner interface of pure-compute dialects -*- C++ -*-===//
//
// The ops of stablehlo, chlo, sdy and check have no inlining constraints:
// JAX emits private functions called with `func.call` whose bodies are made
// of them, and `-inline` (and the import pipeline's first step) must be able
// to inline those bodies anywhere, including into the regions of these ops
// (e.g. a `func.call` inside an `sdy.manual_computation` or a
// `stablehlo.while` body). Their dialects register this interface.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_UTILS_INLINEANYWHERE_H
#define MPMD_DIALECT_UTILS_INLINEANYWHERE_H

#include "mlir/Transforms/InliningUtils.h"

namespace mlir::mpmd {

/// Every op of the dialect may be inlined, and anything may be inlined into
/// its regions. The dialect has no call ops of its own.
struct InlineAnywhereInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace mlir::mpmd

#endif // MPMD_DIALECT_UTILS_INLINEANYWHERE_H
