// batch_norm_training / inference / grad: the spec's examples, and a case
// with the feature dimension in the middle checked against numbers computed
// with numpy (epsilon is the f32 nearest 0.01, as the op's f32 attribute holds;
// the gradient also agrees with finite differences of the training op to
// 1e-9).
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @spec_examples
func.func @spec_examples() {
  %operand = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf32>
  %scale = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %offset = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %output, %mean, %var = "stablehlo.batch_norm_training"(%operand, %scale, %offset) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %output, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf32>
  check.expect_eq_const %mean, dense<[2.0, 3.0]> : tensor<2xf32>
  check.expect_eq_const %var, dense<[1.0, 1.0]> : tensor<2xf32>
  %inference = "stablehlo.batch_norm_inference"(%operand, %scale, %offset, %mean, %var) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  check.expect_eq_const %inference, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf32>
  %grad_output = stablehlo.constant dense<0.1> : tensor<2x2x2xf32>
  %grad_operand, %grad_scale, %grad_offset = "stablehlo.batch_norm_grad"(%operand, %scale, %mean, %var, %grad_output) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const %grad_operand, dense<0.0> : tensor<2x2x2xf32>
  check.expect_almost_eq_const %grad_scale, dense<0.0> : tensor<2xf32>
  check.expect_almost_eq_const %grad_offset, dense<0.4> : tensor<2xf32>
  func.return
}

// CHECK: PASS: @middle_feature_dimension
func.func @middle_feature_dimension() {
  %x = stablehlo.constant dense<[[[-0.9, -0.53, -0.16000000000000003, 0.20999999999999985], [0.58, 0.9500000000000001, -0.7800000000000004, -0.41000000000000025], [-0.04000000000000015, 0.32999999999999996, 0.7000000000000001, 1.0700000000000003]], [[-0.6600000000000007, -0.2900000000000006, 0.07999999999999952, 0.4499999999999996], [0.8199999999999997, 1.19, -0.5400000000000001, -0.17000000000000004], [0.20000000000000007, 0.5699999999999993, 0.9400000000000003, -0.7900000000000006]]]> : tensor<2x3x4xf64>
  %scale = stablehlo.constant dense<[1.0, 0.5, 2.0]> : tensor<3xf64>
  %offset = stablehlo.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf64>
  %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.01 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>)
  check.expect_almost_eq_const %out, dense<[[[-1.5265204468662383, -0.6897610908062259, 0.14699826525378662, 0.9837576213137988], [1.259759829778786, 1.5160561951605214, 0.3176975137810554, 0.573993879162791], [-2.4505109160713787, -1.1494465792315962, 0.15161775760818608, 1.4526820944479688]], [[-0.9837576213137994, -0.14699826525378662, 0.6897610908062262, 1.526520446866239], [1.4260061208372088, 1.6823024862189444, 0.4839438048394785, 0.7402401702212141], [-1.6065772921753032, -0.3055129553355239, 0.9955513815042614, -5.087803490746614]]]> : tensor<2x3x4xf64>, tolerance = 1.0e-9
  check.expect_almost_eq_const %mean, dense<[-0.2250000000000003, 0.2049999999999999, 0.3724999999999999]> : tensor<3xf64>, tolerance = 1.0e-12
  check.expect_almost_eq_const %var, dense<[0.18552499999999997, 0.5110250000000002, 0.31349375000000024]> : tensor<3xf64>, tolerance = 1.0e-12
  %given_mean = stablehlo.constant dense<[0.1, -0.2, 0.3]> : tensor<3xf64>
  %given_var = stablehlo.constant dense<[1.0, 0.25, 4.0]> : tensor<3xf64>
  %inf = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %given_mean, %given_var) {epsilon = 0.01 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x3x4xf64>
  check.expect_almost_eq_const %inf, dense<[[[-0.9950371903200921, -0.6268734299016581, -0.25870966948322394, 0.10945409093520998], [1.764852927367683, 2.1276677775292763, 0.43126320785479955, 0.7940780580163929], [-1.3395757952279312, -0.9700374298328296, -0.6004990644377279, -0.23096069904262628]], [[-0.7562282646432706, -0.3880645042248365, -0.01990074380640233, 0.3482630166120319], [2.0001922896346622, 2.3630071397962555, 0.666602570121779, 1.0294174202833724], [-1.099875233890568, -0.7303368684954672, -0.36079850310036454, -2.0886400494071915]]]> : tensor<2x3x4xf64>, tolerance = 1.0e-9
  %g = stablehlo.constant dense<[[[0.0, 0.8414709848078965, 0.9092974268256817, 0.1411200080598672], [-0.7568024953079282, -0.9589242746631385, -0.27941549819892586, 0.6569865987187891], [0.9893582466233818, 0.4121184852417566, -0.5440211108893698, -0.9999902065507035]], [[-0.5365729180004349, 0.4201670368266409, 0.9906073556948704, 0.6502878401571168], [-0.2879033166650653, -0.9613974918795568, -0.750987246771676, 0.14987720966295234], [0.9129452507276277, 0.8366556385360561, -0.008851309290403876, -0.8462204041751706]]]> : tensor<2x3x4xf64>
  %gx, %gscale, %goffset = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %g) {epsilon = 0.01 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<2x3x4xf64>) -> (tensor<2x3x4xf64>, tensor<3xf64>, tensor<3xf64>)
  check.expect_almost_eq_const %gx, dense<[[[-0.17428796495340876, 1.294857896754537, 1.014397516720871, -1.15669543686136], [-0.13922404233363472, -0.17176414067760806, -0.2035597871596064, 0.5525474966290564], [2.9719784242679426, 1.1004510815574422, -2.1034358887937685, -3.5485282631975394]], [[-1.6691705916293742, 0.06065740285411034, 0.9168642226588338, -0.2866230455442099], [0.2552881948934621, -0.10376820561271217, -0.46050506450697504, 0.27098554876801784], [2.80594398534397, 2.6959527876219744, -0.11890663354183155, -3.80345549325819]]]> : tensor<2x3x4xf64>, tolerance = 1.0e-9
  check.expect_almost_eq_const %gscale, dense<[1.834133049945243, -2.4213461091789847, -0.5535164785851574]> : tensor<3xf64>, tolerance = 1.0e-9
  check.expect_almost_eq_const %goffset, dense<[3.416377734371639, -3.1885665151045495, 0.7519945902231743]> : tensor<3xf64>, tolerance = 1.0e-12
  func.return
}

// bf16 is computed in f64 and rounded once.
// CHECK: PASS: @bf16
func.func @bf16() {
  %x = stablehlo.constant dense<[[1.0, 3.0], [3.0, 5.0]]> : tensor<2x2xbf16>
  %scale = stablehlo.constant dense<[2.0, 1.0]> : tensor<2xbf16>
  %offset = stablehlo.constant dense<[0.5, 0.0]> : tensor<2xbf16>
  %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x2xbf16>, tensor<2xbf16>, tensor<2xbf16>) -> (tensor<2x2xbf16>, tensor<2xbf16>, tensor<2xbf16>)
  check.expect_eq_const %out, dense<[[-1.5, -1.0], [2.5, 1.0]]> : tensor<2x2xbf16>
  check.expect_eq_const %mean, dense<[2.0, 4.0]> : tensor<2xbf16>
  check.expect_eq_const %var, dense<[1.0, 1.0]> : tensor<2xbf16>
  func.return
}
