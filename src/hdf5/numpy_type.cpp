#include "hdf5/numpy_type.h"

namespace kerchunk::hdf5::internal {

std::string LittleEndianDtype(const std::string& dtype) {
  if (dtype.size() > 1 && dtype[0] == '>') return "<" + dtype.substr(1);
  return dtype;
}

}  // namespace kerchunk::hdf5::internal
