// Fuzz target for the native HDF5 scan: the input is a whole file image, translated as
// `kerchunk scan` does (every group, link storage, attribute, datatype, fill value, filter
// pipeline, global/fractal/local heap and chunk index the image reaches), with the skip policy
// and small chunks inline so that every path runs. Errors are expected; crashes, hangs and
// out-of-bounds reads are bugs. Seeds: generated files (NativeOracleFixtures.DISABLED_WriteSeeds).
#include <cstddef>
#include <cstdint>
#include <span>

#include "kerchunk/scan/file_scan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kerchunk::FileScanOptions options;
  options.on_unsupported = kerchunk::OnUnsupported::kSkip;
  options.inline_threshold = 64;
  const auto image = std::as_bytes(std::span(data, size));
  auto result = kerchunk::ScanHdf5Image(image, "fuzz.h5", "fuzz.h5", options);
  if (result.ok()) (void)result->refs.ChunkCount();
  return 0;
}
