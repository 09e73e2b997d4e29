// cholesky and triangular_solve, checked against numpy/scipy results. The
// triangle of `a` an op must not read holds values that would change the
// result.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @cholesky_spec_example
func.func @cholesky_spec_example() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [2.0, 20.0, 26.0], [3.0, 26.0, 70.0]]> : tensor<3x3xf32>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_eq_const %l, dense<[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0]]> : tensor<3x3xf32>
  %u = "stablehlo.cholesky"(%a) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_eq_const %u, dense<[[1.0, 2.0, 3.0], [0.0, 4.0, 5.0], [0.0, 0.0, 6.0]]> : tensor<3x3xf32>
  func.return
}

// CHECK: PASS: @cholesky_batch
func.func @cholesky_batch() {
  %low = stablehlo.constant dense<[[[10.872, 99.0, 99.0, 99.0], [0.509, 4.603, 99.0, 99.0], [-2.062, -0.264, 6.738, 99.0], [3.082, -0.601, -1.278, 7.866]], [[8.866, 99.0, 99.0, 99.0], [2.164, 7.711, 99.0, 99.0], [2.452, 2.251, 5.973, 99.0], [-0.669, 2.533, 1.1, 9.104]]]> : tensor<2x4x4xf64>
  %l = "stablehlo.cholesky"(%low) {lower = true} : (tensor<2x4x4xf64>) -> tensor<2x4x4xf64>
  check.expect_almost_eq_const %l, dense<[[[3.2972715993681807, 0.0, 0.0, 0.0], [0.1543700555627671, 2.1398995037023463, 0.0, 0.0], [-0.625365529607909, -0.07825708083844732, 2.518093283354861, 0.0], [0.9347122028378156, -0.34828344667485744, -0.28621610599042874, 2.605588624343842]], [[2.977582912363651, 0.0, 0.0, 0.0], [0.7267639772563659, 2.6800772603345804, 0.0, 0.0], [0.8234867246915939, 0.6165939830178697, 2.2169080888396953, 0.0], [-0.2246788820630817, 1.0060488023382859, 0.29983039978047515, 2.8198381050400863]]]> : tensor<2x4x4xf64>, tolerance = 1.0e-12
  %up = stablehlo.constant dense<[[[10.872, 0.509, -2.062, 3.082], [-99.0, 4.603, -0.264, -0.601], [-99.0, -99.0, 6.738, -1.278], [-99.0, -99.0, -99.0, 7.866]], [[8.866, 2.164, 2.452, -0.669], [-99.0, 7.711, 2.251, 2.533], [-99.0, -99.0, 5.973, 1.1], [-99.0, -99.0, -99.0, 9.104]]]> : tensor<2x4x4xf64>
  %u = "stablehlo.cholesky"(%up) {lower = false} : (tensor<2x4x4xf64>) -> tensor<2x4x4xf64>
  check.expect_almost_eq_const %u, dense<[[[3.2972715993681807, 0.1543700555627671, -0.625365529607909, 0.9347122028378156], [0.0, 2.1398995037023463, -0.07825708083844732, -0.34828344667485744], [0.0, 0.0, 2.518093283354861, -0.28621610599042874], [0.0, 0.0, 0.0, 2.605588624343842]], [[2.977582912363651, 0.7267639772563659, 0.8234867246915939, -0.2246788820630817], [0.0, 2.6800772603345804, 0.6165939830178697, 1.0060488023382859], [0.0, 0.0, 2.2169080888396953, 0.29983039978047515], [0.0, 0.0, 0.0, 2.8198381050400863]]]> : tensor<2x4x4xf64>, tolerance = 1.0e-12
  func.return
}

// CHECK: PASS: @triangular_solve_spec_example
func.func @triangular_solve_spec_example() {
  %a = stablehlo.constant dense<[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0]]> : tensor<3x3xf32>
  %b = stablehlo.constant dense<[[2.0, 0.0, 0.0], [4.0, 8.0, 0.0], [6.0, 10.0, 12.0]]> : tensor<3x3xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_eq_const %x, dense<[[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]> : tensor<3x3xf32>
  func.return
}

// Every combination of side, triangle, unit diagonal and transpose (ADJOINT
// of a real matrix is its transpose).
// CHECK: PASS: @triangular_solve_all_forms
func.func @triangular_solve_all_forms() {
  %a = stablehlo.constant dense<[[[1.756, -0.626, -0.804], [-2.419, 2.076, -1.024], [1.124, -0.132, 1.377]], [[3.6470000000000002, -0.356, -1.743], [-0.597, 2.411, -0.874], [0.03, -2.248, 2.732]]]> : tensor<2x3x3xf64>
  %b = stablehlo.constant dense<[[[1.013, 0.853], [1.108, 1.119], [1.488, -1.118]], [[0.846, -1.861], [-0.603, -1.914], [1.048, 1.334]]]> : tensor<2x3x2xf64>
  %b_right = stablehlo.constant dense<[[[-0.197, 1.775, -0.675], [0.151, 0.153, -1.064]], [[0.438, 1.939, -1.025], [0.899, -0.155, 1.77]]]> : tensor<2x2x3xf64>
  %x0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x0, dense<[[[0.5768792710706148, 0.4857630979498859], [1.2059108654719737, 1.105038985520604], [0.7253216656201376, -1.1024927930333712]], [[0.23197148341102275, -0.5102824239100631], [-0.19266404993928635, -0.9202151004041093], [0.22252272007106644, -0.2632998070977803]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x1 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x1, dense<[[[0.7150727001942905, 1.676873844910517], [0.6024279975317038, 0.48739300901263954], [1.0806100217864922, -0.8119099491648512]], [[0.2464238118534443, -0.569724283724945], [0.10756397745083691, -0.3385860195431748], [0.38360175695461196, 0.48828696925329423]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x2 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x2, dense<[[[0.7150727001942905, 1.676873844910517], [0.6024279975317038, 0.48739300901263954], [1.0806100217864922, -0.8119099491648512]], [[0.2464238118534443, -0.569724283724945], [0.10756397745083691, -0.3385860195431748], [0.38360175695461196, 0.48828696925329423]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x3 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x3, dense<[[[1.013, 0.8529999999999999], [3.5584469999999997, 3.182407], [0.819103004, -1.656694276]], [[0.846, -1.861], [-0.09793799999999996, -3.025017], [0.8024553760000002, -5.410408216]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x4 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x4, dense<[[[2.495870304, 4.459506656], [1.304416, 0.971424], [1.488, -1.118]], [[1.861043688, -1.2533752959999995], [1.7529040000000002, 1.0848320000000007], [1.048, 1.334]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x5 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x5, dense<[[[2.495870304, 4.459506656], [1.304416, 0.971424], [1.488, -1.118]], [[1.861043688, -1.2533752959999995], [1.7529040000000002, 1.0848320000000007], [1.048, 1.334]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x6 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x6, dense<[[[1.4519290504149784, 0.1634105837392361], [1.066736349860004, 0.13853767440038167], [1.0806100217864922, -0.8119099491648512]], [[0.4044654409048225, -0.33713083648995884], [-0.11104606570786774, -0.6168549103577855], [0.38360175695461196, 0.48828696925329423]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x7 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x7, dense<[[[0.576879271070615, 0.4857630979498861], [0.7076716877120448, 0.6854950382064685], [1.9436940756411827, -0.018518191811813956]], [[0.23197148341102275, -0.5102824239100631], [-0.21585157689990703, -0.8692080227756045], [0.46254466228949265, -0.11534043806043855]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x8 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x8, dense<[[[0.576879271070615, 0.4857630979498861], [0.7076716877120448, 0.6854950382064685], [1.9436940756411827, -0.018518191811813956]], [[0.23197148341102275, -0.5102824239100631], [-0.21585157689990703, -0.8692080227756045], [0.46254466228949265, -0.11534043806043855]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x9 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x9, dense<[[[3.856803712, -0.062042832000000186], [2.6317120000000003, -0.025832000000000077], [1.488, -1.118]], [[2.7840749120000003, 0.1978440960000003], [0.312952, -0.7480839999999997], [1.048, 1.334]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x10 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x10, dense<[[[1.013, 0.853], [1.7421380000000006, 1.6529779999999998], [4.0864013120000005, 1.2604614719999998]], [[0.8459999999999998, -1.8609999999999998], [-0.30182400000000015, -2.576516], [2.2587838239999996, -4.161597983999999]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x11 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x3x2xf64>) -> tensor<2x3x2xf64>
  check.expect_almost_eq_const %x11, dense<[[[1.013, 0.853], [1.7421380000000006, 1.6529779999999998], [4.0864013120000005, 1.2604614719999998]], [[0.8459999999999998, -1.8609999999999998], [-0.30182400000000015, -2.576516], [2.2587838239999996, -4.161597983999999]]]> : tensor<2x3x2xf64>, tolerance = 1.0e-10
  %x12 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x12, dense<[[[1.3364760854899584, 0.8238410971324945, -0.4901960784313726], [0.6144303697522733, 0.02456857287980488, -0.7726942628903414]], [[0.19757054111764422, 0.4544125175425226, -0.3751830161054172], [0.32953572613427173, 0.539787443227812, 0.6478770131771595]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x13 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x13, dense<[[[-0.11218678815489763, 0.7242871673667161, -0.32919109950725384], [0.0859908883826879, 0.17389786078888345, -0.8262158612331217]], [[0.1200987112695366, 0.8339688638025357, 0.3097214657723331], [0.24650397587057857, -0.003250570885634437, 0.6424954602390104]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x14 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x14, dense<[[[-0.11218678815489763, 0.7242871673667161, -0.32919109950725384], [0.0859908883826879, 0.17389786078888345, -0.8262158612331217]], [[0.1200987112695366, 0.8339688638025357, 0.3097214657723331], [0.24650397587057857, -0.003250570885634437, 0.6424954602390104]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x15 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x15, dense<[[[4.6398921, 1.6859, -0.675], [1.3772992880000001, 0.01255199999999998, -1.064]], [[0.2507255999999999, -0.3652000000000002, -1.025], [3.12880412, 3.8239600000000005, 1.77]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x16 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x16, dense<[[[-0.19699999999999998, 1.298457, -0.28217567600000004], [0.15099999999999997, 0.518269, -1.165312492]], [[0.438, 2.200486, 3.908552528000001], [0.899, 0.3817030000000001, 2.6010983440000004]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x17 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x17, dense<[[[-0.19699999999999998, 1.298457, -0.28217567600000004], [0.15099999999999997, 0.518269, -1.165312492]], [[0.438, 2.200486, 3.908552528000001], [0.899, 0.3817030000000001, 2.6010983440000004]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x18 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x18, dense<[[[-0.1121867881548975, 0.8211806698530992, 0.05496792175238632], [0.08599088838268792, 0.09962923705566601, -0.6483972309334183]], [[0.1200987112695366, 0.8219639739576753, -0.03560447767869305], [0.24650397587057857, -0.027890744334331828, 0.7962225180798727]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x19 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x19, dense<[[[-0.11802026585275198, 0.6132173485964713, -0.4901960784313726], [-0.3773927465157551, -0.3074368618495711, -0.7726942628903414]], [[0.006017011043880604, 0.6682248212044236, -0.3751830161054172], [0.5727920453342541, 0.17057009934335848, 0.6478770131771595]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x20 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x20, dense<[[[-0.11802026585275198, 0.6132173485964713, -0.4901960784313726], [-0.3773927465157551, -0.3074368618495711, -0.7726942628903414]], [[0.006017011043880604, 0.6682248212044236, -0.3751830161054172], [0.5727920453342541, 0.17057009934335848, 0.6478770131771595]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x21 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x21, dense<[[[-0.197, 1.651678, 0.8579302719999999], [0.151, 0.24752599999999997, -0.6891293760000001]], [[0.43799999999999994, 2.0949280000000003, 1.5694010720000002], [0.8989999999999997, 0.16504399999999997, 3.4812054559999996]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x22 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x22, dense<[[[-0.06124120000000011, 1.0837999999999999, -0.675], [-1.2907275360000001, -0.936536, -1.064]], [[-0.9772136, 1.0431500000000002, -1.025], [4.47965488, 1.39198, 1.77]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  %x23 = "stablehlo.triangular_solve"(%a, %b_right) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x2x3xf64>) -> tensor<2x2x3xf64>
  check.expect_almost_eq_const %x23, dense<[[[-0.06124120000000011, 1.0837999999999999, -0.675], [-1.2907275360000001, -0.936536, -1.064]], [[-0.9772136, 1.0431500000000002, -1.025], [4.47965488, 1.39198, 1.77]]]> : tensor<2x2x3xf64>, tolerance = 1.0e-10
  func.return
}

// Complex cholesky: A = L L^H with L = [[1, 0, 0], [1-i, 2, 0], [2i, 1+i, 3]]
// (computed by hand: A[i][j] = sum_k L[i][k] conj(L[j][k])), so the factor
// is exact. The triangle the op must not read holds 99s.
// CHECK: PASS: @cholesky_complex_lower
func.func @cholesky_complex_lower() {
  %a = stablehlo.constant dense<[[(1.0, 0.0), (99.0, 99.0), (99.0, 99.0)], [(1.0, -1.0), (6.0, 0.0), (99.0, 99.0)], [(0.0, 2.0), (0.0, 4.0), (15.0, 0.0)]]> : tensor<3x3xcomplex<f32>>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>>
  check.expect_eq_const %l, dense<[[(1.0, 0.0), (0.0, 0.0), (0.0, 0.0)], [(1.0, -1.0), (2.0, 0.0), (0.0, 0.0)], [(0.0, 2.0), (1.0, 1.0), (3.0, 0.0)]]> : tensor<3x3xcomplex<f32>>
  func.return
}
// The upper factor U = L^H from A's upper triangle, batched, in
// complex<f64>; the second matrix is [[4, 2-2i], [2+2i, 11]] = L L^H with
// L = [[2, 0], [1+i, 3]].
// CHECK: PASS: @cholesky_complex_upper
func.func @cholesky_complex_upper() {
  %a = stablehlo.constant dense<[[[(1.0, 0.0), (1.0, 1.0)], [(99.0, 99.0), (3.0, 0.0)]], [[(4.0, 0.0), (2.0, -2.0)], [(99.0, 99.0), (11.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %u = "stablehlo.cholesky"(%a) {lower = false} : (tensor<2x2x2xcomplex<f64>>) -> tensor<2x2x2xcomplex<f64>>
  check.expect_eq_const %u, dense<[[[(1.0, 0.0), (1.0, 1.0)], [(0.0, 0.0), (1.0, 0.0)]], [[(2.0, 0.0), (1.0, -1.0)], [(0.0, 0.0), (3.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  func.return
}
