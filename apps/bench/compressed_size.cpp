#include "bench/compressed_size.h"

#include "bench/subprocess.h"

namespace kerchunk::bench::internal {

std::vector<Compressor> StandardCompressors() {
  return {
      {"gzip -6", {"gzip", "-6", "-c"}},
      {"zstd -19", {"zstd", "-19", "-T0", "-q", "-c"}},
  };
}

Result<std::optional<uint64_t>> CompressedSize(const Compressor& compressor,
                                               const std::string& path) {
  if (!FindProgram(compressor.argv.front())) return std::optional<uint64_t>();
  ProcessOptions options;
  options.stdin_path = path;
  options.keep_stdout = false;
  KERCHUNK_ASSIGN_OR_RETURN(ProcessResult result, RunProcess(compressor.argv, options));
  if (result.exit_code != 0) {
    return IoError("{} of {} failed (exit {}): {}", compressor.label, path, result.exit_code,
                   result.err);
  }
  return std::optional<uint64_t>(result.out_bytes);
}

}  // namespace kerchunk::bench::internal
