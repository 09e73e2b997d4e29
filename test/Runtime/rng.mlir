// stablehlo.rng: the spec leaves the numbers to the implementation, so the
// checks are on their range and moments (the seed is fixed: they hold on
// every run).
// RUN: mpmd interpret %s | FileCheck %s

// Uniform draws lie in [a, b); normal draws of 10000 elements have about
// the given mean and standard deviation; two rng runs draw different
// numbers.
// CHECK: PASS: @rng
func.func @rng() {
  %lo = stablehlo.constant dense<2.0> : tensor<f32>
  %hi = stablehlo.constant dense<3.0> : tensor<f32>
  %shape = stablehlo.constant dense<[100, 100]> : tensor<2xi64>
  %u = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<100x100xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %big = stablehlo.constant dense<1.0e9> : tensor<f32>
  %min = stablehlo.reduce(%u init: %big) applies stablehlo.minimum across dimensions = [0, 1] : (tensor<100x100xf32>, tensor<f32>) -> tensor<f32>
  %max = stablehlo.reduce(%u init: %zero) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<100x100xf32>, tensor<f32>) -> tensor<f32>
  %min_ok = stablehlo.compare GE, %min, %lo : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %max_ok = stablehlo.compare LT, %max, %hi : (tensor<f32>, tensor<f32>) -> tensor<i1>
  check.expect_eq_const %min_ok, dense<true> : tensor<i1>
  check.expect_eq_const %max_ok, dense<true> : tensor<i1>
  %sum = stablehlo.reduce(%u init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<100x100xf32>, tensor<f32>) -> tensor<f32>
  %n = stablehlo.constant dense<10000.0> : tensor<f32>
  %mean = stablehlo.divide %sum, %n : tensor<f32>
  check.expect_almost_eq_const %mean, dense<2.5> : tensor<f32>, tolerance = 0.02
  %mu = stablehlo.constant dense<-1.0> : tensor<f32>
  %sigma = stablehlo.constant dense<2.0> : tensor<f32>
  %g = stablehlo.rng %mu, %sigma, %shape, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<100x100xf32>
  %gsum = stablehlo.reduce(%g init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<100x100xf32>, tensor<f32>) -> tensor<f32>
  %gmean = stablehlo.divide %gsum, %n : tensor<f32>
  check.expect_almost_eq_const %gmean, dense<-1.0> : tensor<f32>, tolerance = 0.08
  %mu_b = stablehlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<100x100xf32>
  %centered = stablehlo.subtract %g, %mu_b : tensor<100x100xf32>
  %squares = stablehlo.multiply %centered, %centered : tensor<100x100xf32>
  %ssum = stablehlo.reduce(%squares init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<100x100xf32>, tensor<f32>) -> tensor<f32>
  %variance = stablehlo.divide %ssum, %n : tensor<f32>
  check.expect_almost_eq_const %variance, dense<4.0> : tensor<f32>, tolerance = 0.2
  %u2 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<100x100xf32>
  %diff = stablehlo.subtract %u, %u2 : tensor<100x100xf32>
  %adiff = stablehlo.abs %diff : tensor<100x100xf32>
  %maxdiff = stablehlo.reduce(%adiff init: %zero) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<100x100xf32>, tensor<f32>) -> tensor<f32>
  %differ = stablehlo.compare GT, %maxdiff, %zero : (tensor<f32>, tensor<f32>) -> tensor<i1>
  check.expect_eq_const %differ, dense<true> : tensor<i1>
  func.return
}

// Integers: uniform in [a, b), every value drawn.
// CHECK: PASS: @rng_integers
func.func @rng_integers() {
  %lo = stablehlo.constant dense<-2> : tensor<i32>
  %hi = stablehlo.constant dense<2> : tensor<i32>
  %shape = stablehlo.constant dense<[1000]> : tensor<1xi64>
  %r = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<1000xi32>
  %big = stablehlo.constant dense<100> : tensor<i32>
  %small = stablehlo.constant dense<-100> : tensor<i32>
  %min = stablehlo.reduce(%r init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<1000xi32>, tensor<i32>) -> tensor<i32>
  %max = stablehlo.reduce(%r init: %small) applies stablehlo.maximum across dimensions = [0] : (tensor<1000xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %min, dense<-2> : tensor<i32>
  check.expect_eq_const %max, dense<1> : tensor<i32>
  func.return
}
