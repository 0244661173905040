// Fuzz target: NetCDF-3 header parsing and translation of an arbitrary byte buffer (the whole
// "file"). Beyond not crashing, checks what the translator promises: every byte range lies inside
// the input, and the result's memory stays proportional to the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "kerchunk/netcdf3/header.h"
#include "kerchunk/netcdf3/translator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const std::byte> file(reinterpret_cast<const std::byte*>(data), size);
  kerchunk::FileScanOptions options;
  options.inline_threshold = 16;  // exercise inline copies as well as ranges
  auto result = kerchunk::netcdf3::TranslateNetcdf3(file, "fuzz.nc", "fuzz.nc", options);
  if (!result.ok()) {
    if (result.status().code() == kerchunk::StatusCode::kInternal) std::abort();
    return 0;
  }
  for (const auto& array : result->refs.arrays) {
    for (size_t i = 0; i < array.size(); ++i) {
      auto ref = array.Get(i);
      if (ref.kind == kerchunk::RefKind::kRange &&
          (ref.offset > size || ref.length > size - ref.offset)) {
        std::abort();
      }
    }
  }
  if (result->refs.MemoryUsage() > 64 * size + (1 << 20)) std::abort();
  return 0;
}
