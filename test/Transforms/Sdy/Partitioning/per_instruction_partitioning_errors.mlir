// RUN: mpmd-opt -sdy-per-instruction-partitioning='filter=selectLow=x' -verify-diagnostics %s
// RUN: not mpmd-opt -sdy-per-instruction-partitioning='filter=negate,selectMid=1' %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mpmd-opt -sdy-per-instruction-partitioning='filter=selectHigh=-1' %s 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// UNKNOWN: error: filter entry 'selectMid=1' is neither selectLow=N, selectHigh=N nor an op name
// NEGATIVE: error: filter entry 'selectHigh=-1' needs a non-negative integer after '='

// expected-error@below {{filter entry 'selectLow=x' needs a non-negative integer after '='}}
module {
  sdy.mesh @m = <["x"=2]>
  func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
