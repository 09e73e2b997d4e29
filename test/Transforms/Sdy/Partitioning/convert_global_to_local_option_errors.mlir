// RUN: not mpmd-opt "-sdy-convert-global-to-local=replica-count=2 partition-count=4" %s 2>&1 | FileCheck %s --check-prefix=COUNTS
// RUN: not mpmd-opt "-sdy-convert-global-to-local=enable-rgv3=true" %s 2>&1 | FileCheck %s --check-prefix=RGV3

// COUNTS: error: -sdy-convert-global-to-local needs replica-count or partition-count to be 1, got 2 and 4

// Mesh-axes replica groups cannot be written in this StableHLO dialect.
// RGV3: :[[@LINE+4]]:10: error: enable-rgv3 asks for mesh-axes replica groups, which this StableHLO dialect cannot express (replica_groups is a dense i64 matrix); run without enable-rgv3
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @f(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
    %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
