//===- CompoundKernels.h - batch norm, cholesky, top_k kernels --*- C++ -*-===//
//
// Kernels of the interpreter's compound ops (InterpreterCompoundOps), and
// the scatter walk that runs scatter update regions. Kept apart from
// Kernels.h, which most of the runtime includes, so that these do not
// rebuild it; same conventions (plain C++, shapes and dtypes verified by
// the caller).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_COMPOUNDKERNELS_H
#define MPMD_RUNTIME_COMPOUNDKERNELS_H

#include "mpmd/Runtime/Kernels.h"

#include <functional>
#include <vector>

namespace mlir::mpmd::runtime {

//===----------------------------------------------------------------------===//
// Batch normalization, Cholesky, triangular solve (computed in f64, rounded once to the
// operand's dtype; float dtypes only)
//===----------------------------------------------------------------------===//

/// `stablehlo.batch_norm_inference`: (x - mean) / sqrt(variance + epsilon)
/// * scale + offset per feature (dimension `featureIndex`). O(elements).
Tensor batchNormInference(const Tensor &operand, const Tensor &scale,
                          const Tensor &offset, const Tensor &mean,
                          const Tensor &variance, double epsilon,
                          int64_t featureIndex);
/// `stablehlo.batch_norm_training`: {output, batch mean, batch variance}
/// (biased variance). Two passes over the operand and one to normalize.
std::vector<Tensor> batchNormTraining(const Tensor &operand,
                                      const Tensor &scale, const Tensor &offset,
                                      double epsilon, int64_t featureIndex);
/// `stablehlo.batch_norm_grad`: {grad operand, grad scale, grad offset}.
/// Two passes over the operand and grad_output.
std::vector<Tensor> batchNormGrad(const Tensor &operand, const Tensor &scale,
                                  const Tensor &mean, const Tensor &variance,
                                  const Tensor &gradOutput, double epsilon,
                                  int64_t featureIndex);

/// `stablehlo.cholesky` of each n x n matrix of the last two dimensions:
/// L with A = L L^H from A's lower triangle (`lower`), else U with
/// A = U^H U from its upper triangle (^H: the conjugate transpose, the
/// transpose for real A; the diagonal's imaginary parts are not read); the
/// other triangle is zero. A matrix
/// that is not positive definite gives nan from the first failing pivot.
/// O(batch * n^3 / 3).
Tensor cholesky(const Tensor &a, bool lower);

enum class TransposeKind { None, Transpose, Adjoint };
/// `stablehlo.triangular_solve` for real and complex matrices: x with
/// op(a) x = b (`leftSide`) or x op(a) = b, reading only a's lower
/// (`lower`) or upper triangle, with an implicit unit diagonal if
/// `unitDiagonal`; op is the identity, the transpose or the adjoint (the
/// conjugate transpose; the transpose for real matrices).
/// O(batch * n^2 * m) for b of n x m (left side).
Tensor triangularSolve(const Tensor &a, const Tensor &b, bool leftSide,
                       bool lower, bool unitDiagonal, TransposeKind transpose);

//===----------------------------------------------------------------------===//
// top_k and the scatter walk
//===----------------------------------------------------------------------===//

/// top_k along the last dimension: {the k largest values in descending
/// order, their indices as i32}; ties keep the lower index first; nan is
/// larger than every number. A partial sort per row: O(n log k) for rows
/// of n.
std::vector<Tensor> topK(const Tensor &operand, int64_t k);

/// Calls `body(updateOffset, inputOffset)` for each update element (in
/// index order) with the element of the input it addresses, as `scatter`
/// walks them; elements that address outside the input are skipped.
/// O(update elements).
void forEachScatterTarget(
    const Shape &inputShape, const Tensor &scatterIndices,
    const Shape &updatesShape, const ScatterDimensions &dimensions,
    const std::function<void(int64_t updateOffset, int64_t inputOffset)>
        &body);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_COMPOUNDKERNELS_H
