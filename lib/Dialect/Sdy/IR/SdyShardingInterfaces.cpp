//===- SdyShardingInterfaces.cpp - How ops take part in propagation -------===//

#include "mpmd/Dialect/Sdy/IR/SdyShardingInterfaces.h"

#include "mpmd/Dialect/Sdy/IR/SdyShardingInterfaces.cpp.inc"
