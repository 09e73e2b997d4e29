//===- MeshInferenceUtils.h - Shared code of the infer-mesh passes -*- C++ -*-===//
//
// Mesh sets over the topology, the program model (MPMD functions, call
// sites, analysis blocks), the use_set/src_set analyses and the attribute
// I/O the -mpmd-infer-mesh-* passes share.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_IMPORT_MESHINFERENCEUTILS_H
#define MPMD_LIB_TRANSFORMS_IMPORT_MESHINFERENCEUTILS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace mlir::mpmd::infer {

// Discardable attributes.
inline constexpr llvm::StringLiteral kUseSetAttr = MpmdDialect::kUseSetAttrName;
inline constexpr llvm::StringLiteral kSrcSetAttr = MpmdDialect::kSrcSetAttrName;
inline constexpr llvm::StringLiteral kReduceAttr = "mpmd.reduce";
inline constexpr llvm::StringLiteral kCopiesAttr = "mpmd.copies";

// Origin labels.
inline constexpr llvm::StringLiteral kInferredIn = "inferred_in";
inline constexpr llvm::StringLiteral kInferredOut = "inferred_out";
inline constexpr llvm::StringLiteral kInferredUnused = "inferred_unused";
inline constexpr llvm::StringLiteral kInferredUnusedCalleeIn =
    "inferred_unused_callee_in";
inline constexpr llvm::StringLiteral kInferredUnusedCalleeOut =
    "inferred_unused_callee_out";
inline constexpr llvm::StringLiteral kIoConstraintIn = "io_constraint_in";
inline constexpr llvm::StringLiteral kIoConstraintOut = "io_constraint_out";
inline constexpr llvm::StringLiteral kTransferOrigin = "transfer";
inline constexpr llvm::StringLiteral kBroadcastIn = "broadcast_in";
/// On the assigns leaf assignment creates for operands of mpmd.broadcast and
/// mpmd.reduce.
inline constexpr llvm::StringLiteral kBroadcastOrigin = "broadcast";
inline constexpr llvm::StringLiteral kReduceOrigin = "reduce";

// Values of mpmd.inferred_by.
inline constexpr llvm::StringLiteral kWrapMeshlessOps =
    "infer_mesh_wrap_meshless_ops";
inline constexpr llvm::StringLiteral kWrapResultlessOps =
    "infer_mesh_wrap_resultless_ops";
inline constexpr llvm::StringLiteral kConvertReduceOps =
    "infer_mesh_convert_reduce_ops";

/// Gives the local-tensor value `value` (a block argument or an op result)
/// the mesh tensor type `meshType`: its assigns to that type are replaced by
/// the value, and its other users get an unassign at the start of the block
/// (block argument) or right after the op.
void retypeToMesh(Value value, Type meshType);

/// The meshes of a topology, indexed in name order (`isMeshNameBefore`), so
/// that the smallest index is the "first mesh".
class MeshIndex {
public:
  MeshIndex() = default;
  explicit MeshIndex(TopologyAttr topology);
  unsigned size() const { return names.size(); }
  StringRef name(unsigned index) const { return names[index]; }
  std::optional<unsigned> lookup(StringRef name) const;
  /// The indices in the order the topology declares the meshes.
  ArrayRef<unsigned> inTopologyOrder() const { return declared; }

private:
  SmallVector<StringRef> names;
  SmallVector<unsigned> declared;
};

/// A set of meshes (indices of a MeshIndex), each with the origins that put
/// the value there. Meshes and origins keep the order they were inserted in,
/// which is the order the `mpmd.use_set`/`mpmd.src_set` attributes print;
/// decisions never depend on it (`meshes()` is in mesh order, equality
/// ignores order). Origins are capped per mesh to the first kMaxOrigins
/// inserted so that sets stay O(M) in size for M meshes; lookups are linear
/// in the number of meshes of the set.
class MeshSet {
public:
  static constexpr unsigned kMaxOrigins = 4;
  struct Entry {
    unsigned mesh;
    SmallVector<StringAttr, 1> origins; // insertion order, unique
  };

  bool empty() const { return entries.empty(); }
  unsigned size() const { return entries.size(); }
  bool contains(unsigned mesh) const;
  /// In insertion order.
  ArrayRef<Entry> getEntries() const { return entries; }
  const Entry *find(unsigned mesh) const;
  /// The meshes in mesh order (the first is the "first mesh" of the set).
  SmallVector<unsigned> meshes() const;
  /// Adds `mesh` (with `origin` if non-null) at the end. Returns true on
  /// change.
  bool insert(unsigned mesh, StringAttr origin = {});
  /// this := this ∪ other: other's new meshes are appended in its order and
  /// its new origins after the existing ones. Returns true on change.
  bool unionWith(const MeshSet &other);
  /// this ∩ other, in this set's order; the origins of kept meshes are this
  /// set's followed by other's.
  MeshSet intersect(const MeshSet &other) const;
  /// Every mesh of this set is in `other`.
  bool isSubsetOf(const MeshSet &other) const;
  /// A set with every mesh of `index` in topology order, each with origin
  /// `origin`.
  static MeshSet all(const MeshIndex &index, StringAttr origin = {});
  /// The same meshes with the same origins, in any order.
  bool operator==(const MeshSet &other) const;
  bool operator!=(const MeshSet &other) const { return !(*this == other); }
  /// The same meshes with the same origins in the same order.
  bool isIdenticalTo(const MeshSet &other) const;

  MeshesWithOriginsAttr toAttr(MLIRContext *ctx, const MeshIndex &index) const;
  static MeshSet fromAttr(MeshesWithOriginsAttr attr, const MeshIndex &index);
  /// `{"m1"["layer1"], "m2"}` for diagnostics, in mesh order.
  std::string str(const MeshIndex &index) const;

private:
  static bool mergeOrigins(SmallVector<StringAttr, 1> &into,
                           ArrayRef<StringAttr> from);
  SmallVector<Entry, 2> entries; // insertion order
};

/// src_set lattice value: nullopt means "every mesh" (no constraint).
using SrcSet = std::optional<MeshSet>;
SrcSet intersectSrc(const SrcSet &lhs, const SrcSet &rhs);
std::string srcStr(const SrcSet &set, const MeshIndex &index);

/// A unit of mesh inference: MPMD functions (with a topology) connected by
/// `mpmd.call`s -- an entry point with the private callees reachable from
/// it, entry points that share a callee together -- all with one topology.
/// Units never interact, so each may have its own topology.
struct Program {
  ModuleOp module;
  MeshIndex meshes;
  /// Callees first, then entry points; each in module order.
  SmallVector<func::FuncOp> functions;
  DenseMap<Operation *, SmallVector<CallOp>> callSites; // callee -> calls
  DenseMap<Operation *, func::FuncOp> callees;          // call -> callee

  /// The units of `module`, in the module order of their first function.
  /// (The mpmd.call verifier keeps the functions of a unit on one
  /// topology.)
  static std::vector<Program> buildUnits(ModuleOp module);
  bool isEntry(func::FuncOp function) const;
  func::FuncOp getCallee(CallOp call) const { return callees.lookup(call); }
  ArrayRef<CallOp> getCallSites(func::FuncOp callee) const;
  /// Visits every block the analyses work on (function bodies and the
  /// bodies of mpmd.for ops in them), callees first.
  void forEachBlock(function_ref<void(Block &)> fn) const;
};

/// A block whose top-level ops are analysed: the body of an MPMD function or
/// of an `mpmd.for`.
bool isAnalysisBlock(Block *block);
/// Not a terminator, not an mpmd/func op: an op mesh inference places.
bool isMeshlessOp(Operation *op);
/// Meshless ops, `mpmd.broadcast` and `mpmd.reduce`: the ops with use/src
/// sets of their own.
bool hasInferredSets(Operation *op);
/// The op in an analysis block that uses `use` (the owner, or the ancestor
/// of a nested owner).
Operation *getAnalysisUser(OpOperand &use);
/// Operands followed by values used in nested regions that are defined
/// outside the op, deduplicated.
SmallVector<Value> getInputs(Operation *op);
/// The reduction an op computes when it is a binary elementwise
/// add/mul/max/min/or/and, or nullopt.
std::optional<ReductionType> getReductionKind(Operation *op);

/// A `stablehlo.reduce` over the concatenated dimension of a single-use
/// `stablehlo.concatenate` whose operands all have size 1 there, with a body
/// that is one binary add/mul/max/min/or/and and an init value that is that
/// operation's identity: the reduction of the concatenated operands.
struct ConcatReduction {
  Operation *concat;
  ReductionType kind;
  /// The concatenated values (what is reduced).
  ValueRange operands() const { return concat->getOperands(); }
};
std::optional<ConcatReduction> matchConcatReduction(Operation *op);

//===--- Attribute I/O ---------------------------------------------------===//

MeshSet getOpUseSet(Operation *op, const MeshIndex &index);
SrcSet getOpSrcSet(Operation *op, const MeshIndex &index);
void setOpUseSet(Operation *op, const MeshSet &set, const MeshIndex &index);
void setOpSrcSet(Operation *op, const SrcSet &set, const MeshIndex &index);
/// The loop-carried value i of an `mpmd.for` (operand, block argument and
/// result i share it): its sets live in the loop's `arg_attrs`.
MeshSet getLoopUseSet(ForOp loop, unsigned i, const MeshIndex &index);
SrcSet getLoopSrcSet(ForOp loop, unsigned i, const MeshIndex &index);
/// The loop and index of the loop-carried value `value` is (a block argument
/// other than the index, or a result, of an `mpmd.for`).
std::optional<std::pair<ForOp, unsigned>> getLoopCarried(Value value);
MeshSet getArgUseSet(func::FuncOp f, unsigned i, const MeshIndex &index);
SrcSet getArgSrcSet(func::FuncOp f, unsigned i, const MeshIndex &index);
MeshSet getResultUseSet(func::FuncOp f, unsigned i, const MeshIndex &index);
SrcSet getResultSrcSet(func::FuncOp f, unsigned i, const MeshIndex &index);
/// The use_set of `assign`: its own mesh, with its origin if it has one
/// (empty when the mesh is not in the topology).
MeshSet getOwnMesh(AssignOp assign, const MeshIndex &index);
/// The use_set of a value: its defining op's, its function argument's, or
/// for a call result the callee result's.
MeshSet getValueUseSet(Value value, const Program &program);
/// The src_set of a value, following calls (callee results) and loops.
SrcSet getValueSrcSet(Value value, const Program &program);

//===--- Analyses ---------------------------------------------------------===//

void populateUseSets(Program &program);
void populateSrcSets(Program &program);

//===--- Helpers ----------------------------------------------------------===//

/// Caps diagnostics at `limit` (-1: unlimited).
class ErrorReporter {
public:
  explicit ErrorReporter(int limit) : limit(limit) {}
  /// Returns a diagnostic to stream into, or nullopt when over the limit.
  /// Either way the failure is recorded.
  std::optional<InFlightDiagnostic> emit(Location loc);
  bool hadError() const { return count > 0; }

private:
  int limit;
  int count = 0;
};
/// Emits the error for an invalid `error-limit` and returns failure.
LogicalResult checkErrorLimit(Operation *op, int limit);

/// Picks a mesh from `src` (nullopt: all meshes), preferring meshes in
/// `preferred`, then meshes that are not only `broadcast_in`, then the
/// first. Returns nullopt when `src` is empty.
std::optional<unsigned> pickMesh(const SrcSet &src, const MeshSet &preferred,
                                 const MeshIndex &index);

/// `!mpmd.mesh_tensor<mesh, type>` (type ranked tensor), or `type` itself
/// for tokens.
Type getMeshType(Type type, StringRef mesh);
/// `input` as an operand of a fragment on `mesh`: an `mpmd.assign` of a
/// tensor (with no origin), a token itself -- tokens are never assigned.
Value assignToMesh(OpBuilder &builder, Value input, StringRef mesh);
/// The mesh name of a mesh tensor type, or empty.
StringRef getMeshName(Type type);
/// The local type of a mesh tensor (its global tensor type), or `type`.
Type getLocalType(Type type);
/// The conflicting-meshes diagnostic body for `op` (operands and their
/// src_sets).
void describeInputs(InFlightDiagnostic &diag, Operation *op,
                    const Program &program);
extern const char kConflictHint[];

} // namespace mlir::mpmd::infer

#endif // MPMD_LIB_TRANSFORMS_IMPORT_MESHINFERENCEUTILS_H
