//===- InferMeshAssignUsingInputOutputConstraints.cpp ---------------------===//
//
// -mpmd-infer-mesh-assign-using-input-output-constraints
//
//===----------------------------------------------------------------------===//

#include "MeshInferenceUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHASSIGNUSINGINPUTOUTPUTCONSTRAINTSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

using namespace infer;

/// The first mesh (in mesh order) of lhs ∩ rhs.
std::optional<unsigned> firstCommon(const MeshSet &lhs, const MeshSet &rhs) {
  for (unsigned mesh : lhs.meshes())
    if (rhs.contains(mesh))
      return mesh;
  return std::nullopt;
}

/// The mesh for an input/output pair that should live on one mesh, or
/// nullopt to leave the pair alone:
/// * an output already on a mesh keeps it;
/// * an input already on a mesh gives it to the output if the output can be
///   computed there (its src_set), else the output is left to a transfer;
/// * an input with no use_set: the output's use_set, else its src_set;
/// * else the meshes where the input is used that the output is used on,
///   else that the output can be computed on.
std::optional<unsigned> chooseMesh(BlockArgument arg, Value out,
                                   const MeshSet &argUse,
                                   const Program &program) {
  const MeshIndex &meshes = program.meshes;
  if (StringRef name = getMeshName(out.getType()); !name.empty())
    return meshes.lookup(name);
  SrcSet outSrc = getValueSrcSet(out, program);
  if (StringRef name = getMeshName(arg.getType()); !name.empty()) {
    std::optional<unsigned> mesh = meshes.lookup(name);
    if (mesh && (!outSrc || outSrc->contains(*mesh)))
      return mesh;
    return std::nullopt;
  }
  MeshSet outUse = getValueUseSet(out, program);
  if (argUse.empty()) {
    if (!outUse.empty())
      return outUse.meshes().front();
    if (outSrc && !outSrc->empty())
      return outSrc->meshes().front();
    return std::nullopt;
  }
  if (std::optional<unsigned> mesh = firstCommon(argUse, outUse))
    return mesh;
  if (!outSrc)
    return argUse.meshes().front();
  return firstCommon(argUse, *outSrc);
}

class InferMeshAssignUsingInputOutputConstraintsPass
    : public impl::InferMeshAssignUsingInputOutputConstraintsPassBase<
          InferMeshAssignUsingInputOutputConstraintsPass> {
  using Base::Base;

  void runOnOperation() override {
        std::vector<Program> units =
        Program::buildUnits(getOperation());
    for (Program &program : units)
      if (failed(applyConstraints(program)))
        return signalPassFailure();
  }

  LogicalResult applyConstraints(Program &program) {
    const MeshIndex &meshes = program.meshes;
    MLIRContext *ctx = &getContext();
    for (func::FuncOp f : program.functions) {
      if (!program.isEntry(f))
        continue;
      Operation *ret = f.getBody().front().getTerminator();
      for (const InputOutputEquishardingConstraint &c : constraints) {
        if (c.input < 0 || c.input >= f.getNumArguments() || c.output < 0 ||
            c.output >= f.getNumResults()) {
          f.emitError("input/output constraint ")
              << c.input << ":" << c.output << " is out of range";
          return failure();
        }
        BlockArgument arg = f.getArgument(c.input);
        Value out = ret->getOperand(c.output);
        MeshSet argUse = getArgUseSet(f, c.input, meshes);
        std::optional<unsigned> mesh =
            chooseMesh(arg, out, argUse, program);
        if (!mesh) {
          if (verboseLogging)
            f.emitRemark("no common mesh for input ")
                << c.input << " and output " << c.output;
          continue;
        }
        StringRef name = meshes.name(*mesh);
        if (verboseLogging)
          f.emitRemark("input ") << c.input << " and output " << c.output
                                 << " assigned to mesh \"" << name << "\"";
        if (isa<RankedTensorType>(arg.getType())) {
          Type local = arg.getType();
          arg.setType(getMeshType(local, name));
          OpBuilder builder = OpBuilder::atBlockBegin(arg.getOwner());
          auto unassign = UnassignOp::create(builder, arg.getLoc(), arg,
                                             builder.getStringAttr(kIoConstraintIn));
          arg.replaceAllUsesExcept(unassign.getResult(), unassign);
          MeshSet src;
          src.insert(*mesh, builder.getStringAttr(kIoConstraintIn));
          for (const MeshSet::Entry &e : argUse.getEntries())
            src.insert(e.mesh, builder.getStringAttr(kInferredIn));
          setOpSrcSet(unassign, src, meshes);
          setOpUseSet(unassign, argUse, meshes);
        }
        if (isa<RankedTensorType>(out.getType())) {
          OpBuilder builder(ret);
          auto assign = AssignOp::create(
              builder, out.getLoc(), getMeshType(out.getType(), name), out,
              builder.getStringAttr(kIoConstraintOut));
          ret->setOperand(c.output, assign.getResult());
        }
      }
      f.setType(FunctionType::get(ctx, f.getBody().front().getArgumentTypes(),
                                  ret->getOperandTypes()));
    }
    return success();
  }
};

} // namespace
} // namespace mlir::mpmd
