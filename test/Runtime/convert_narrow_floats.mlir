// convert from f32 to every narrow float type and back, at the edges:
// rounding ties (to even), the largest finite value and past it
// (overflow: inf, NaN or saturation by type), the smallest subnormal, half
// of it (a tie to zero), inf, NaN and -0. Expected bit patterns and values
// are MLIR APFloat's.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// CHECK: PASS: @convert_f8E5M2
func.func @convert_f8E5M2() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F900000, 0x3FB00000, 0x47600000, 0x476E0000, 0x7149F2CA, 0x37800000, 0x37000000, 0x37C00000, 0xB7400000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf8E5M2>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf8E5M2>) -> tensor<15xui8>
  check.expect_eq_const %bits, dense<[60, 60, 62, 123, 123, 124, 1, 0, 2, 129, 193, 124, 252, 126, 128]> : tensor<15xui8>
  %back = stablehlo.convert %y : (tensor<15xf8E5M2>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3FC00000, 0x47600000, 0x47600000, 0x7F800000, 0x37800000, 0x00000000, 0x38000000, 0xB7800000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f8E4M3
func.func @convert_f8E4M3() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F880000, 0x3F980000, 0x43700000, 0x437F0000, 0x7149F2CA, 0x3B000000, 0x3A800000, 0x3B400000, 0xBAC00000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf8E4M3>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf8E4M3>) -> tensor<15xui8>
  check.expect_eq_const %bits, dense<[56, 56, 58, 119, 120, 120, 1, 0, 2, 129, 194, 120, 248, 124, 128]> : tensor<15xui8>
  %back = stablehlo.convert %y : (tensor<15xf8E4M3>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3FA00000, 0x43700000, 0x7F800000, 0x7F800000, 0x3B000000, 0x00000000, 0x3B800000, 0xBB000000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f8E3M4
func.func @convert_f8E3M4() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F840000, 0x3F8C0000, 0x41780000, 0x4183C000, 0x7149F2CA, 0x3C800000, 0x3C000000, 0x3CC00000, 0xBC400000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf8E3M4>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf8E3M4>) -> tensor<15xui8>
  check.expect_eq_const %bits, dense<[48, 48, 50, 111, 112, 112, 1, 0, 2, 129, 196, 112, 240, 120, 128]> : tensor<15xui8>
  %back = stablehlo.convert %y : (tensor<15xf8E3M4>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3F900000, 0x41780000, 0x7F800000, 0x7F800000, 0x3C800000, 0x00000000, 0x3D000000, 0xBC800000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f8E4M3FN
func.func @convert_f8E4M3FN() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F880000, 0x3F980000, 0x43E00000, 0x43EE0000, 0x7149F2CA, 0x3B000000, 0x3A800000, 0x3B400000, 0xBAC00000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf8E4M3FN>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf8E4M3FN>) -> tensor<15xui8>
  check.expect_eq_const %bits, dense<[56, 56, 58, 126, 127, 127, 1, 0, 2, 129, 194, 127, 255, 127, 128]> : tensor<15xui8>
  %back = stablehlo.convert %y : (tensor<15xf8E4M3FN>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3FA00000, 0x43E00000, 0x7FC00000, 0x7FC00000, 0x3B000000, 0x00000000, 0x3B800000, 0xBB000000, 0xC0200000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f8E4M3FNUZ
func.func @convert_f8E4M3FNUZ() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F880000, 0x3F980000, 0x43700000, 0x437F0000, 0x7149F2CA, 0x3A800000, 0x3A000000, 0x3AC00000, 0xBA400000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf8E4M3FNUZ>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf8E4M3FNUZ>) -> tensor<15xui8>
  check.expect_eq_const %bits, dense<[64, 64, 66, 127, 128, 128, 1, 0, 2, 129, 202, 128, 128, 128, 0]> : tensor<15xui8>
  %back = stablehlo.convert %y : (tensor<15xf8E4M3FNUZ>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3FA00000, 0x43700000, 0x7FC00000, 0x7FC00000, 0x3A800000, 0x00000000, 0x3B000000, 0xBA800000, 0xC0200000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x00000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f8E5M2FNUZ
func.func @convert_f8E5M2FNUZ() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F900000, 0x3FB00000, 0x47600000, 0x476E0000, 0x7149F2CA, 0x37000000, 0x36800000, 0x37400000, 0xB6C00000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf8E5M2FNUZ>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf8E5M2FNUZ>) -> tensor<15xui8>
  check.expect_eq_const %bits, dense<[64, 64, 66, 127, 127, 128, 1, 0, 2, 129, 197, 128, 128, 128, 0]> : tensor<15xui8>
  %back = stablehlo.convert %y : (tensor<15xf8E5M2FNUZ>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3FC00000, 0x47600000, 0x47600000, 0x7FC00000, 0x37000000, 0x00000000, 0x37800000, 0xB7000000, 0xC0200000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x00000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f8E4M3B11FNUZ
func.func @convert_f8E4M3B11FNUZ() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F880000, 0x3F980000, 0x41F00000, 0x41FF0000, 0x7149F2CA, 0x39000000, 0x38800000, 0x39400000, 0xB8C00000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf8E4M3B11FNUZ>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf8E4M3B11FNUZ>) -> tensor<15xui8>
  check.expect_eq_const %bits, dense<[88, 88, 90, 127, 128, 128, 1, 0, 2, 129, 226, 128, 128, 128, 0]> : tensor<15xui8>
  %back = stablehlo.convert %y : (tensor<15xf8E4M3B11FNUZ>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3FA00000, 0x41F00000, 0x7FC00000, 0x7FC00000, 0x39000000, 0x00000000, 0x39800000, 0xB9000000, 0xC0200000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x00000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f8E8M0FNU
func.func @convert_f8E8M0FNU() {
  %x = stablehlo.constant dense<[0x3F800000, 0x40400000, 0x3F400000, 0x40C00000, 0x7F000000, 0x7F7843AF, 0x00400000, 0x00200000, 0x00300000, 0xBF800000, 0x00000000, 0x7F800000, 0x7FC00000, 0x44800000, 0x3E99999A]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf8E8M0FNU>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf8E8M0FNU>) -> tensor<15xui8>
  check.expect_eq_const %bits, dense<[127, 129, 127, 130, 254, 255, 0, 0, 0, 255, 0, 255, 255, 137, 125]> : tensor<15xui8>
  %back = stablehlo.convert %y : (tensor<15xf8E8M0FNU>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x40800000, 0x3F800000, 0x41000000, 0x7F000000, 0x7FC00000, 0x00400000, 0x00400000, 0x00400000, 0x7FC00000, 0x00400000, 0x7FC00000, 0x7FC00000, 0x44800000, 0x3E800000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f4E2M1FN
func.func @convert_f4E2M1FN() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3FA00000, 0x3FE00000, 0x40C00000, 0x40CC0000, 0x7149F2CA, 0x3F000000, 0x3E800000, 0x3F400000, 0xBEC00000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf4E2M1FN>
  %bits = stablehlo.bitcast_convert %y : (tensor<15xf4E2M1FN>) -> tensor<15xui4>
  check.expect_eq_const %bits, dense<[2, 2, 4, 7, 7, 7, 1, 0, 2, 9, 12, 0, 8, 0, 8]> : tensor<15xui4>
  %back = stablehlo.convert %y : (tensor<15xf4E2M1FN>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x40000000, 0x40C00000, 0x40C00000, 0x40C00000, 0x3F000000, 0x00000000, 0x3F800000, 0xBF000000, 0xC0000000, 0x00000000, 0x80000000, 0x00000000, 0x80000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f6E2M3FN
func.func @convert_f6E2M3FN() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F880000, 0x3F980000, 0x40F00000, 0x40FF0000, 0x7149F2CA, 0x3E000000, 0x3D800000, 0x3E400000, 0xBDC00000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf6E2M3FN>
  %back = stablehlo.convert %y : (tensor<15xf6E2M3FN>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3FA00000, 0x40F00000, 0x40F00000, 0x40F00000, 0x3E000000, 0x00000000, 0x3E800000, 0xBE000000, 0xC0200000, 0x00000000, 0x80000000, 0x00000000, 0x80000000]> : tensor<15xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_f6E3M2FN
func.func @convert_f6E3M2FN() {
  %x = stablehlo.constant dense<[0x3F800000, 0x3F900000, 0x3FB00000, 0x41E00000, 0x41EE0000, 0x7149F2CA, 0x3D800000, 0x3D000000, 0x3DC00000, 0xBD400000, 0xC0200000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000]> : tensor<15xf32>
  %y = stablehlo.convert %x : (tensor<15xf32>) -> tensor<15xf6E3M2FN>
  %back = stablehlo.convert %y : (tensor<15xf6E3M2FN>) -> tensor<15xf32>
  check.expect_eq_const %back, dense<[0x3F800000, 0x3F800000, 0x3FC00000, 0x41E00000, 0x41E00000, 0x41E00000, 0x3D800000, 0x00000000, 0x3E000000, 0xBD800000, 0xC0200000, 0x00000000, 0x80000000, 0x00000000, 0x80000000]> : tensor<15xf32>
  func.return
}
