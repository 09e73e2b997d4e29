// Two microbatches through mpmd.call of a forward and backward over two
// layers, with a glue op (tanh) between them that mesh inference places.
// No topology: `mpmd compile` sets it from the config.
!t = tensor<4xf32>

func.func @main(%x: !t, %w: !t) -> (!t, !t) {
  %g0 = mpmd.call @microbatch(%x, %w) {call_counter = 0 : ui32} : (!t, !t) -> !t
  %g1 = mpmd.call @microbatch(%x, %w) {call_counter = 1 : ui32} : (!t, !t) -> !t
  return %g0, %g1 : !t, !t
}
func.func @microbatch(%x: !t, %w: !t) -> !t {
  %a = mpmd.named_computation<"layer1"> (%x, %w) (%in: !t, %wi: !t) {
    %m = stablehlo.multiply %in, %wi : !t
    mpmd.return %m : !t
  } : (!t, !t) -> !t
  %h = stablehlo.tanh %a : !t
  %b = mpmd.named_computation<"layer2"> (%h) (%in: !t) {
    %s = stablehlo.sine %in : !t
    mpmd.return %s : !t
  } : (!t) -> !t
  %db = mpmd.named_computation<"layer2"(1)> (%b) (%in: !t) {
    %c = stablehlo.cosine %in : !t
    mpmd.return %c : !t
  } : (!t) -> !t
  %da = mpmd.named_computation<"layer1"(1)> (%db, %x) (%g: !t, %in: !t) {
    %dw = stablehlo.multiply %g, %in : !t
    mpmd.return %dw : !t
  } : (!t, !t) -> !t
  return %da : !t
}
