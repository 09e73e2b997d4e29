//===- MpmdDialect.cpp - mpmd dialect registration ------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::mpmd;

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.cpp.inc"

namespace {

/// Calls (`mpmd.call`, `mpmd.fragment_call`) are never inlined by the generic
/// inliner: `-mpmd-call-inline` does that with call-counter bookkeeping.
/// Regions and ops may be inlined freely.
struct MpmdInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return false;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace

void MpmdDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.cpp.inc"
      >();
  addInterfaces<MpmdInlinerInterface>();
}

LogicalResult MpmdDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kUseSetAttrName || attr.getName() == kSrcSetAttrName) {
    if (!isa<MeshesWithOriginsAttr>(attr.getValue()))
      return op->emitOpError()
             << "expects '" << attr.getName().getValue()
             << "' to be a #mpmd.meshes_with_origins attribute";
  }
  return success();
}
