// Mesh and sub-axis sizes whose products leave int64: verifier errors, never
// a wrapped device count or a division by a wrapped zero.
// RUN: mpmd-opt -split-input-file -verify-diagnostics %s

// expected-error @+1 {{the product of the axis sizes does not fit in 64 bits}}
sdy.mesh @mesh = <["x"=4294967296, "y"=4294967296]>

// -----

// 2^32 * 2^32 wraps to 0: the divisibility check must not divide by it.
sdy.mesh @mesh = <["x"=4]>
// expected-error @+1 {{argument 0 has an invalid sharding #sdy.sharding<@mesh, [{"x":(4294967296)4294967296}]>: sub-axis "x":(4294967296)4294967296 does not divide axis size 4}}
func.func @sub_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(4294967296)4294967296}]>}) {
  return
}

// -----

// The largest representable mesh is fine.
sdy.mesh @mesh = <["x"=3037000499, "y"=3037000499]>
