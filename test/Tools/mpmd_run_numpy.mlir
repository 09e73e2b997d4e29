// NumPy and mpmd run read each other's .npy files: NumPy writes one array
// of every supported dtype (format versions 1.0, 2.0 and 3.0), mpmd run
// passes them through and writes them back, NumPy compares.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/npy_interop.py write %t
// RUN: mpmd run %s --outputs %t --inputs %t/input_0.npy,%t/input_1.npy,%t/input_2.npy,%t/input_3.npy,%t/input_4.npy,%t/input_5.npy,%t/input_6.npy,%t/input_7.npy,%t/input_8.npy,%t/input_9.npy,%t/input_10.npy,%t/input_11.npy,%t/input_12.npy | FileCheck %s
// RUN: %numpy_python %S/Inputs/npy_interop.py check %t | FileCheck %s --check-prefix=NUMPY

// CHECK: output 0: tensor<2x3xf64> min -2.5 max 1e+300 {{.*}} [0.1, -2.5, 1e+300, -0, 3, 7.25]
// CHECK: output 3: tensor<4xi1> {{.*}} [true, false, false, true]
// CHECK: output 7: tensor<i64> {{.*}} [-9223372036854775808]
// CHECK: output 11: tensor<3xui64> {{.*}} [0, 1, 18446744073709551615]
// CHECK: output 12: tensor<3xbf16> {{.*}} [0.5, -1.25, 384]
// NUMPY: numpy read 13 outputs back unchanged

// RUN: not mpmd run %s --function f32 --inputs %t/fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: mpmd run: error: {{.*}}fortran.npy: Fortran-order arrays are not supported; save np.ascontiguousarray(a)
// RUN: not mpmd run %s --function f32 --inputs %t/big_endian.npy 2>&1 | FileCheck %s --check-prefix=BIG-ENDIAN
// BIG-ENDIAN: mpmd run: error: {{.*}}big_endian.npy: big-endian data ('>f4') is not supported
// RUN: not mpmd run %s --function f32 --inputs %t/objects.npy 2>&1 | FileCheck %s --check-prefix=OBJECTS
// OBJECTS: mpmd run: error: {{.*}}objects.npy: object arrays ('|O') are not supported
func.func @f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  func.return %x : tensor<2x3xf32>
}

func.func @main(%f64: tensor<2x3xf64>, %f32: tensor<2x3xf32>, %f16: tensor<3xf16>,
                %i1: tensor<4xi1>, %i8: tensor<3xi8>, %i16: tensor<3xi16>,
                %i32: tensor<2x2xi32>, %i64: tensor<i64>, %ui8: tensor<3xui8>,
                %ui16: tensor<3xui16>, %ui32: tensor<3xui32>, %ui64: tensor<3xui64>,
                %bf16: tensor<3xbf16>)
    -> (tensor<2x3xf64>, tensor<2x3xf32>, tensor<3xf16>, tensor<4xi1>, tensor<3xi8>,
        tensor<3xi16>, tensor<2x2xi32>, tensor<i64>, tensor<3xui8>, tensor<3xui16>,
        tensor<3xui32>, tensor<3xui64>, tensor<3xbf16>) {
  func.return %f64, %f32, %f16, %i1, %i8, %i16, %i32, %i64, %ui8, %ui16, %ui32, %ui64, %bf16
      : tensor<2x3xf64>, tensor<2x3xf32>, tensor<3xf16>, tensor<4xi1>, tensor<3xi8>,
        tensor<3xi16>, tensor<2x2xi32>, tensor<i64>, tensor<3xui8>, tensor<3xui16>,
        tensor<3xui32>, tensor<3xui64>, tensor<3xbf16>
}
