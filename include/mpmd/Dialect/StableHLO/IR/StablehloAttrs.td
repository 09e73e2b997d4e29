//===- StablehloAttrs.td - stablehlo enums and attributes -*- tablegen -*-===//
//
// Enum attributes print as upstream does: `#stablehlo<comparison_direction LT>`
// in generic form and as the bare keyword (`LT`) inside pretty op syntax.
// Struct-like attributes use `key = value` lists where empty lists and
// index_vector_dim = 0 are left out:
// `#stablehlo.gather<offset_dims = [2], index_vector_dim = 2>`.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_TD
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_TD

include "mpmd/Dialect/StableHLO/IR/StablehloBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Stablehlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "Which comparison a `stablehlo.compare` performs.", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def Stablehlo_ComparisonDirectionAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_ComparisonDirection,
               "comparison_direction">;

def Stablehlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "How a `stablehlo.compare` interprets its operands.", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>, I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def Stablehlo_ComparisonTypeAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_ComparisonType, "comparison_type">;

def Stablehlo_Precision : I32EnumAttr<"Precision",
    "Precision of a dot operand.", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def Stablehlo_PrecisionAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_Precision, "precision">;
def Stablehlo_PrecisionConfigAttr
    : TypedArrayAttrBase<Stablehlo_PrecisionAttr, "precision config">;

def Stablehlo_RngAlgorithm : I32EnumAttr<"RngAlgorithm",
    "Bit generator algorithm of `stablehlo.rng_bit_generator`.", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>,
      I32EnumAttrCase<"PHILOX", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def Stablehlo_RngAlgorithmAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_RngAlgorithm, "rng_algorithm">;

def Stablehlo_Transpose : I32EnumAttr<"Transpose",
    "How `stablehlo.triangular_solve` uses its matrix `a`.", [
      I32EnumAttrCase<"TRANSPOSE_INVALID", 0>, I32EnumAttrCase<"NO_TRANSPOSE", 1>,
      I32EnumAttrCase<"TRANSPOSE", 2>, I32EnumAttrCase<"ADJOINT", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def Stablehlo_TransposeAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_Transpose, "transpose">;

def Stablehlo_RngDistribution : I32EnumAttr<"RngDistribution",
    "Distribution of the numbers `stablehlo.rng` draws.", [
      I32EnumAttrCase<"UNIFORM", 1>, I32EnumAttrCase<"NORMAL", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def Stablehlo_RngDistributionAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_RngDistribution, "rng_distribution">;

def Stablehlo_FftType : I32EnumAttr<"FftType",
    "Which transform a `stablehlo.fft` computes.", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
      I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::stablehlo";
}
def Stablehlo_FftTypeAttr
    : EnumAttr<Stablehlo_Dialect, Stablehlo_FftType, "fft_type">;

// Printed as a plain integer attribute (`api_version = 2 : i32`), as upstream.
def Stablehlo_CustomCallApiVersionAttr : I32EnumAttr<"CustomCallApiVersion",
    "Calling convention of a custom call target.", [
      I32EnumAttrCase<"API_VERSION_UNSPECIFIED", 0>,
      I32EnumAttrCase<"API_VERSION_ORIGINAL", 1>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING", 2>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING_UNIFIED", 3>,
      I32EnumAttrCase<"API_VERSION_TYPED_FFI", 4>]> {
  let cppNamespace = "::mlir::stablehlo";
}

//===----------------------------------------------------------------------===//
// Struct-like attributes
//===----------------------------------------------------------------------===//

// A list of dimension numbers printed as `[0, 1]`; left out when empty.
class Stablehlo_DimsParameter<string desc>
    : OptionalArrayRefParameter<"int64_t", desc> {
  let parser = "::mlir::stablehlo::parseDimsParameter($_parser)";
  let printer = "::mlir::stablehlo::printDimsParameter($_printer, $_self)";
}
// Same, but always printed (`[]` when empty).
class Stablehlo_RequiredDimsParameter<string desc>
    : ArrayRefParameter<"int64_t", desc> {
  let parser = "::mlir::stablehlo::parseDimsParameter($_parser)";
  let printer = "::mlir::stablehlo::printDimsParameter($_printer, $_self)";
}
def Stablehlo_BoolParameter : AttrOrTypeParameter<"bool", "true or false"> {
  let parser = "::mlir::stablehlo::parseBoolParameter($_parser)";
  let printer = "$_printer << ($_self ? \"true\" : \"false\")";
}

def Stablehlo_GatherDimensionNumbers
    : Stablehlo_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "Dimension numbers of `stablehlo.gather`.";
  let parameters = (ins
      Stablehlo_DimsParameter<"offset dims">:$offset_dims,
      Stablehlo_DimsParameter<"collapsed slice dims">:$collapsed_slice_dims,
      Stablehlo_DimsParameter<"operand batching dims">:$operand_batching_dims,
      Stablehlo_DimsParameter<"start indices batching dims">:$start_indices_batching_dims,
      Stablehlo_DimsParameter<"start index map">:$start_index_map,
      // JAX leaves index_vector_dim = 0 out, as upstream's printer does.
      DefaultValuedParameter<"int64_t", "0">:$index_vector_dim);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Stablehlo_ScatterDimensionNumbers
    : Stablehlo_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "Dimension numbers of `stablehlo.scatter`.";
  let parameters = (ins
      Stablehlo_DimsParameter<"update window dims">:$update_window_dims,
      Stablehlo_DimsParameter<"inserted window dims">:$inserted_window_dims,
      Stablehlo_DimsParameter<"input batching dims">:$input_batching_dims,
      Stablehlo_DimsParameter<"scatter indices batching dims">:$scatter_indices_batching_dims,
      Stablehlo_DimsParameter<"scatter dims to operand dims">:$scatter_dims_to_operand_dims,
      DefaultValuedParameter<"int64_t", "0">:$index_vector_dim);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Stablehlo_DotDimensionNumbers
    : Stablehlo_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "Batching and contracting dimensions of `stablehlo.dot_general`.";
  let parameters = (ins
      Stablehlo_DimsParameter<"lhs batching dims">:$lhs_batching_dimensions,
      Stablehlo_DimsParameter<"rhs batching dims">:$rhs_batching_dimensions,
      Stablehlo_DimsParameter<"lhs contracting dims">:$lhs_contracting_dimensions,
      Stablehlo_DimsParameter<"rhs contracting dims">:$rhs_contracting_dimensions);
  let assemblyFormat = "`<` struct(params) `>`";
}

// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`: each list
// names what every dimension of the lhs, kernel and result is (b/f batch and
// feature, i/o kernel input and output feature, integers the spatial
// dimensions in order). `#stablehlo.conv<raw input_batch_dimension = 0,
// ...>` spells the fields out; it is also printed when the dimensions do not
// form the compact lists (an invalid attribute the verifier reports).
def Stablehlo_ConvDimensionNumbers
    : Stablehlo_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "Dimension numbers of `stablehlo.convolution`.";
  let parameters = (ins
      "int64_t":$input_batch_dimension,
      "int64_t":$input_feature_dimension,
      Stablehlo_DimsParameter<"input spatial dims">:$input_spatial_dimensions,
      "int64_t":$kernel_input_feature_dimension,
      "int64_t":$kernel_output_feature_dimension,
      Stablehlo_DimsParameter<"kernel spatial dims">:$kernel_spatial_dimensions,
      "int64_t":$output_batch_dimension,
      "int64_t":$output_feature_dimension,
      Stablehlo_DimsParameter<"output spatial dims">:$output_spatial_dimensions);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_DotAlgorithm : Stablehlo_Attr<"DotAlgorithm", "dot_algorithm"> {
  let summary = "Algorithm a `stablehlo.dot_general` must use.";
  let parameters = (ins
      "::mlir::Type":$lhs_precision_type,
      "::mlir::Type":$rhs_precision_type,
      "::mlir::Type":$accumulation_type,
      "int64_t":$lhs_component_count,
      "int64_t":$rhs_component_count,
      "int64_t":$num_primitive_operations,
      Stablehlo_BoolParameter:$allow_imprecise_accumulation);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Stablehlo_ChannelHandle : Stablehlo_Attr<"ChannelHandle", "channel_handle"> {
  let summary = "Channel of a collective or send/recv: `<handle = 1, type = 0>`.";
  let parameters = (ins "int64_t":$handle, "int64_t":$type);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Stablehlo_OutputOperandAlias
    : Stablehlo_Attr<"OutputOperandAlias", "output_operand_alias"> {
  let summary = "An output of a custom call that aliases one of its operands.";
  let parameters = (ins
      Stablehlo_RequiredDimsParameter<"output tuple indices">:$output_tuple_indices,
      "int64_t":$operand_index,
      Stablehlo_RequiredDimsParameter<"operand tuple indices">:$operand_tuple_indices);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_TD
