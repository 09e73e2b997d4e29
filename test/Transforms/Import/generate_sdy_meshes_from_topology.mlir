// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-generate-sdy-meshes-from-topology | FileCheck %s
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-import-pipeline='name-to-mesh-assignment=f@tpu enable-heterogeneous-meshes=true' | FileCheck %s --check-prefix=PIPE

// One sdy.mesh per topology mesh replaces the global ones; shardings follow
// the <mesh>_ prefix of their axes; a sharding without axes goes to a new
// @empty_mesh (the topology is left as it is); a maximal mesh stays.
// CHECK:      sdy.mesh @tpu = <["tpu_x"=2, "tpu_y"=2]>
// CHECK-NEXT: sdy.mesh @cpu = <["cpu_z"=2]>
// CHECK-NEXT: sdy.mesh @empty_mesh = <[]>
// CHECK-NEXT: sdy.mesh @maximal = <[], device_ids=[0]>
// CHECK-NOT:  sdy.mesh
// CHECK:      func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@tpu, [{"tpu_x", "tpu_y"}, {}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@cpu, [{}, {"cpu_z"}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {?}]>}) attributes {topology = #mpmd.topology<<"tpu" : <["tpu_x"=2, "tpu_y"=2]>>, <"cpu" : <["cpu_z"=2]>>>}
// CHECK:        sdy.sharding_constraint %{{.*}} <@tpu, [{"tpu_x"}, {}], replicated={"tpu_y"}>

// PIPE:      sdy.mesh @tpu = <["tpu_x"=2, "tpu_y"=2]>
// PIPE-NEXT: sdy.mesh @cpu = <["cpu_z"=2]>
// PIPE-NOT:  sdy.mesh @mesh
// PIPE:      func.func @main(%arg0: !mpmd.mesh_tensor<"tpu", tensor<4x8xf32>> {sdy.sharding = #sdy.sharding<@tpu, [{"tpu_x", "tpu_y"}, {}]>}
// PIPE:      mpmd.fragment<mesh="tpu", origin=["f"]>

sdy.mesh @mesh = <["tpu_x"=2, "tpu_y"=2]>
sdy.mesh @mesh_0 = <["cpu_z"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"tpu": <["tpu_x"=2, "tpu_y"=2]>>, <"cpu": <["cpu_z"=2]>>>

func.func @main(%arg0: !t {sdy.sharding = #sdy.sharding<@mesh, [{"tpu_x", "tpu_y"}, {}]>}, %arg1: !t {sdy.sharding = #sdy.sharding<@mesh_0, [{}, {"cpu_z"}]>})
    -> (!t {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}]>}) attributes {topology = #topology} {
  %n = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    %b = stablehlo.abs %a : !t
    mpmd.return %b : !t
  } : (!t) -> !t
  %0 = sdy.sharding_constraint %n <@mesh, [{"tpu_x"}, {}], replicated={"tpu_y"}> : !t
  %1 = stablehlo.add %0, %arg1 : !t
  return %1 : !t
}

// -----

// Axes that name no topology mesh, or two of them, are errors.
sdy.mesh @mesh = <["x"=2, "tpu_y"=2, "cpu_z"=2]>
!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"tpu": <["tpu_y"=2]>>, <"cpu": <["cpu_z"=2]>>>
// expected-error @+1 {{axis "x" of a sharding does not start with the name of a topology mesh followed by '_' (heterogeneous meshes need axes named <mesh>_<axis>)}}
func.func @main(%arg0: !t {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{a sharding uses axes of two meshes, "tpu" and "cpu"}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"tpu_y"}, {"cpu_z"}]> : !t
  return %0 : !t
}

// -----

// An axis with the prefix of a topology mesh must also be one of its axes:
// the re-pointed sharding would not verify otherwise.
sdy.mesh @mesh = <["tpu_x"=2, "tpu_y"=2]>
!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"tpu": <["tpu_x"=2, "tpu_q"=2]>>>
// expected-error @+1 {{axis "tpu_y" of a sharding is not an axis of topology mesh "tpu"}}
func.func @main(%arg0: !t {sdy.sharding = #sdy.sharding<@mesh, [{"tpu_x", "tpu_y"}, {}]>}) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}
