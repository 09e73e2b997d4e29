// --random-inputs draws a quantized argument's storage integers within the
// narrowed storage range its type declares: the smallest and largest value
// of 256 draws are the range's ends.
// RUN: mpmd run %s --function narrow --random-inputs 3 --print | FileCheck %s

// CHECK: tensor<i8> {{.*}}[-3]
// CHECK: tensor<i8> {{.*}}[3]
// CHECK: tensor<ui8> {{.*}}[200]
// CHECK: tensor<ui8> {{.*}}[215]
func.func @narrow(%signed: tensor<256x!quant.uniform<i8<-3:3>:f32, 1.0>>,
                  %unsigned: tensor<256x!quant.uniform<u8<200:255>:f32, 1.0:200>>)
    -> (tensor<i8>, tensor<i8>, tensor<ui8>, tensor<ui8>) {
  %s = stablehlo.bitcast_convert %signed : (tensor<256x!quant.uniform<i8<-3:3>:f32, 1.0>>) -> tensor<256xi8>
  %u = stablehlo.bitcast_convert %unsigned : (tensor<256x!quant.uniform<u8<200:255>:f32, 1.0:200>>) -> tensor<256xui8>
  %big = stablehlo.constant dense<127> : tensor<i8>
  %small = stablehlo.constant dense<-128> : tensor<i8>
  %min_s = stablehlo.reduce(%s init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<256xi8>, tensor<i8>) -> tensor<i8>
  %max_s = stablehlo.reduce(%s init: %small) applies stablehlo.maximum across dimensions = [0] : (tensor<256xi8>, tensor<i8>) -> tensor<i8>
  %ubig = stablehlo.constant dense<255> : tensor<ui8>
  %usmall = stablehlo.constant dense<0> : tensor<ui8>
  %min_u = stablehlo.reduce(%u init: %ubig) applies stablehlo.minimum across dimensions = [0] : (tensor<256xui8>, tensor<ui8>) -> tensor<ui8>
  %max_u = stablehlo.reduce(%u init: %usmall) applies stablehlo.maximum across dimensions = [0] : (tensor<256xui8>, tensor<ui8>) -> tensor<ui8>
  return %min_s, %max_s, %min_u, %max_u : tensor<i8>, tensor<i8>, tensor<ui8>, tensor<ui8>
}
