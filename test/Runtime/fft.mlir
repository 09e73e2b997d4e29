// stablehlo.fft: FFT, IFFT, RFFT and IRFFT over 1 to 3 trailing
// dimensions, at power-of-two lengths (radix-2) and others (Bluestein).
// Expected values from NumPy's FFT.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// CHECK: PASS: @fft_of_an_impulse_is_flat
func.func @fft_of_an_impulse_is_flat() {
  %x = stablehlo.constant dense<[(1.0, 0.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)]> : tensor<4xcomplex<f32>>
  %y = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  check.expect_eq_const %y, dense<(1.0, 0.0)> : tensor<4xcomplex<f32>>
  func.return
}

// -----

// CHECK: PASS: @fft_length_8
func.func @fft_length_8() {
  %x = stablehlo.constant dense<[(0.0, -0.5), (0.25, -0.5), (-0.25, 0.5), (-1.0, 0.25), (-0.5, 0.0), (-1.0, -1.0), (0.0, 0.0), (1.25, 0.75)]> : tensor<8xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [8] : (tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>>
  check.expect_almost_eq_const %y, dense<[(-1.25, -0.5), (3.4748737341529168, 1.1642135623730951), (-2.75, 0.0), (-2.4748737341529168, -0.74999999999999978), (-0.25, 0.5), (-1.4748737341529168, -1.6642135623730951), (2.25, -2.0), (2.4748737341529168, -0.75000000000000022)]> : tensor<8xcomplex<f64>>
  %back = stablehlo.fft %y, type = IFFT, length = [8] : (tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>>
  check.expect_almost_eq_const %back, dense<[(0.0, -0.5), (0.25, -0.5), (-0.25, 0.5), (-1.0, 0.25), (-0.5, 0.0), (-1.0, -1.0), (0.0, 0.0), (1.25, 0.75)]> : tensor<8xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS: @fft_length_5
func.func @fft_length_5() {
  %x = stablehlo.constant dense<[(-1.25, -0.25), (-0.5, -1.25), (-2.0, 0.25), (-1.25, 0.25), (-1.75, -0.25)]> : tensor<5xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [5] : (tensor<5xcomplex<f64>>) -> tensor<5xcomplex<f64>>
  check.expect_almost_eq_const %y, dense<[(-6.75, -1.25), (-0.2670395219202063, -1.8660156948994819), (-1.0218022466674206, -0.32998996383706158), (0.15376825791752569, 2.5660579413368514), (1.6350735106701006, -0.37005228260030787)]> : tensor<5xcomplex<f64>>
  %back = stablehlo.fft %y, type = IFFT, length = [5] : (tensor<5xcomplex<f64>>) -> tensor<5xcomplex<f64>>
  check.expect_almost_eq_const %back, dense<[(-1.25, -0.25), (-0.5, -1.25), (-2.0, 0.25), (-1.25, 0.25), (-1.75, -0.25)]> : tensor<5xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS: @fft_length_12
func.func @fft_length_12() {
  %x = stablehlo.constant dense<[(-2.5, -0.5), (-0.5, 0.0), (0.0, 0.0), (0.0, 0.0), (-1.5, -1.25), (-0.5, 0.0), (-1.0, 1.25), (-0.75, -1.5), (1.0, 0.75), (-0.75, 0.0), (-0.0, -0.75), (1.0, 2.0)]> : tensor<12xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [12] : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
  check.expect_almost_eq_const %y, dense<[(-5.5, 0.0), (-1.0669872981077806, 3.196152422706632), (-3.524519052838329, 0.97548094716167089), (-2.5, 0.5), (-9.0376587736527405, 4.8056079660838638), (-1.9330127018922194, -7.1961524227066311), (-2.5, -0.99999999999999978), (-3.598076211353316, -2.6160254037844384), (1.7876587736527414, -2.5556079660838642), (-1.5000000000000002, -3.5000000000000009), (-2.225480947161671, 2.274519052838329), (1.598076211353316, -0.8839745962155614)]> : tensor<12xcomplex<f64>>
  %back = stablehlo.fft %y, type = IFFT, length = [12] : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
  check.expect_almost_eq_const %back, dense<[(-2.5, -0.5), (-0.5, 0.0), (0.0, 0.0), (0.0, 0.0), (-1.5, -1.25), (-0.5, 0.0), (-1.0, 1.25), (-0.75, -1.5), (1.0, 0.75), (-0.75, 0.0), (-0.0, -0.75), (1.0, 2.0)]> : tensor<12xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS: @fft_length_1
func.func @fft_length_1() {
  %x = stablehlo.constant dense<[(0.75, -1.25)]> : tensor<1xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [1] : (tensor<1xcomplex<f64>>) -> tensor<1xcomplex<f64>>
  check.expect_almost_eq_const %y, dense<[(0.75, -1.25)]> : tensor<1xcomplex<f64>>
  %back = stablehlo.fft %y, type = IFFT, length = [1] : (tensor<1xcomplex<f64>>) -> tensor<1xcomplex<f64>>
  check.expect_almost_eq_const %back, dense<[(0.75, -1.25)]> : tensor<1xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS: @fft_2d_batched
func.func @fft_2d_batched() {
  %x = stablehlo.constant dense<[[[(0.0, -0.25), (0.5, -0.25), (-0.25, -0.25), (0.75, 1.5)], [(-0.0, -0.5), (0.75, -0.25), (1.5, 0.25), (-0.75, 0.0)], [(0.25, -0.25), (-0.5, -1.0), (0.25, 0.0), (-1.25, -0.5)]], [[(-0.5, 1.25), (-0.25, 0.75), (1.0, 0.0), (1.25, 0.75)], [(-1.25, -0.25), (-0.75, 1.0), (0.75, 0.0), (-2.0, 0.5)], [(-0.5, -1.25), (0.0, 0.25), (1.25, -1.75), (0.75, -2.0)]]]> : tensor<2x3x4xcomplex<f32>>
  %y = stablehlo.fft %x, type = FFT, length = [3, 4] : (tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x4xcomplex<f32>>
  check.expect_almost_eq_const %y, dense<[[[(1.25, -1.5), (-3.75, -3.0), (2.25, -0.5), (1.25, 1.0)], [(1.95753175, -0.50656986), (-1.45753175, 2.95753175), (-4.45753175, -1.72548095), (2.59150635, 0.640544457)], [(-0.207531755, 4.25656986), (0.707531755, 0.792468245), (-2.29246825, -3.02451905), (2.15849365, -2.39054446)]], [[(-0.25, -0.75), (-2.5, 2.5), (1.75, -3.25), (-8.0, 0.5)], [(7.57115242, 8.61362067), (-3.38156986, 4.60705081), (-2.0580127, -0.698557159), (2.83253175, -1.92403811)], [(-2.82115242, 0.386379332), (1.38156986, 1.14294919), (-1.1919873, 3.19855716), (0.667468245, 0.674038106)]]]> : tensor<2x3x4xcomplex<f32>>
  %z = stablehlo.fft %x, type = FFT, length = [2, 3, 4] : (tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x4xcomplex<f32>>
  check.expect_almost_eq_const %z, dense<[[[(1.0, -2.25), (-6.25, -0.5), (4.0, -3.75), (-6.75, 1.5)], [(9.52868418, 8.10705081), (-4.83910162, 7.56458256), (-6.51554446, -2.42403811), (5.42403811, -1.28349365)], [(-3.02868418, 4.64294919), (2.08910162, 1.93541744), (-3.48445554, 0.174038106), (2.82596189, -1.71650635)]], [[(1.5, -0.75), (-1.25, -5.5), (0.5, 2.75), (9.25, 0.5)], [(-5.61362067, -9.12019053), (1.92403811, -1.64951905), (-2.39951905, -1.02692379), (-0.241025404, 2.56458256)], [(2.61362067, 3.87019053), (-0.674038106, -0.350480947), (-1.10048095, -6.22307621), (1.4910254, -3.06458256)]]]> : tensor<2x3x4xcomplex<f32>>
  %i = stablehlo.fft %x, type = IFFT, length = [3, 4] : (tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x4xcomplex<f32>>
  check.expect_almost_eq_const %i, dense<[[[(0.104166667, -0.125), (0.104166667, 0.0833333333), (0.1875, -0.0416666667), (-0.3125, -0.25)], [(-0.0172943129, 0.354714155), (0.179874471, -0.199212038), (-0.19103902, -0.252043254), (0.0589609796, 0.0660390204)], [(0.163127646, -0.042214155), (0.215958863, 0.0533787047), (-0.37146098, -0.143790079), (-0.12146098, 0.24646098)]], [[(-0.0208333333, -0.0625), (-0.666666667, 0.0416666667), (0.145833333, -0.270833333), (-0.208333333, 0.208333333)], [(-0.235096035, 0.0321982777), (0.0556223538, 0.0561698421), (-0.0993322748, 0.26654643), (0.115130822, 0.095245766)], [(0.630929369, 0.717801722), (0.236044313, -0.160336509), (-0.171501058, -0.0582130965), (-0.281797488, 0.383920901)]]]> : tensor<2x3x4xcomplex<f32>>
  func.return
}

// -----

// CHECK: PASS: @rfft_6
func.func @rfft_6() {
  %x = stablehlo.constant dense<[-0.25, -1.0, 0.25, 2.25, -0.75, -0.5]> : tensor<6xf32>
  %y = stablehlo.fft %x, type = RFFT, length = [6] : (tensor<6xf32>) -> tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %y, dense<[(0.0, 0.0), (-3.0, -0.433012702), (3.0, 1.29903811), (-1.5, 0.0)]> : tensor<4xcomplex<f32>>
  %back = stablehlo.fft %y, type = IRFFT, length = [6] : (tensor<4xcomplex<f32>>) -> tensor<6xf32>
  check.expect_almost_eq_const %back, dense<[-0.25, -1.0, 0.25, 2.25, -0.75, -0.5]> : tensor<6xf32>
  func.return
}

// -----

// CHECK: PASS: @rfft_2_5
func.func @rfft_2_5() {
  %x = stablehlo.constant dense<[[0.25, 0.5, -0.25, -0.25, 0.75], [0.5, -1.0, -0.0, 0.0, -1.0]]> : tensor<2x5xf32>
  %y = stablehlo.fft %x, type = RFFT, length = [2, 5] : (tensor<2x5xf32>) -> tensor<2x3xcomplex<f32>>
  check.expect_almost_eq_const %y, dense<[[(-0.5, 0.0), (0.922745751, 0.237764129), (1.20225425, 0.146946313)], [(2.5, 0.0), (1.15881373, 0.237764129), (-3.03381373, 0.146946313)]]> : tensor<2x3xcomplex<f32>>
  %back = stablehlo.fft %y, type = IRFFT, length = [2, 5] : (tensor<2x3xcomplex<f32>>) -> tensor<2x5xf32>
  check.expect_almost_eq_const %back, dense<[[0.25, 0.5, -0.25, -0.25, 0.75], [0.5, -1.0, -0.0, 0.0, -1.0]]> : tensor<2x5xf32>
  func.return
}

// -----

// CHECK: PASS: @rfft_3_8
func.func @rfft_3_8() {
  %x = stablehlo.constant dense<[[0.25, -0.75, 1.0, 0.25, 0.0, -0.5, -0.0, -2.0], [-1.25, 0.25, -2.25, 0.75, -1.75, 0.75, -0.75, 0.75], [0.25, -1.5, 1.25, 1.5, -0.0, -0.25, -0.25, -1.0]]> : tensor<3x8xf32>
  %y = stablehlo.fft %x, type = RFFT, length = [3, 8] : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  check.expect_almost_eq_const %y, dense<[[(-5.25, 0.0), (-3.77297077, -2.94454365), (-1.5, 2.25), (5.77297077, -0.944543648), (-1.75, 0.0)], [(0.0, 3.03108891), (3.27956293, -4.35576529), (-1.89054446, -2.52451905), (-1.38625941, 1.62465555), (7.25, 9.52627944)], [(0.0, -3.03108891), (-4.05989302, 0.0576682475), (1.14054446, -1.22548095), (1.66658949, -1.92275258), (7.25, -9.52627944)]]> : tensor<3x5xcomplex<f32>>
  %back = stablehlo.fft %y, type = IRFFT, length = [3, 8] : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
  check.expect_almost_eq_const %back, dense<[[0.25, -0.75, 1.0, 0.25, 0.0, -0.5, -0.0, -2.0], [-1.25, 0.25, -2.25, 0.75, -1.75, 0.75, -0.75, 0.75], [0.25, -1.5, 1.25, 1.5, -0.0, -0.25, -0.25, -1.0]]> : tensor<3x8xf32>
  func.return
}
