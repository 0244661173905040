// Parsing and checking the options of `kerchunk bench` (the parts the command line cannot check
// by itself).
#include <charconv>
#include <cmath>

#include "bench/bench_internal.h"
#include "kerchunk/bench/bench.h"

namespace kerchunk::bench {
namespace {

// "1000", "1e4", "2.5e6": a whole number >= 1 written in decimal or scientific notation.
Result<uint64_t> ParseCount(std::string_view text, std::string_view what) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 1 ||
      value > 9007199254740992.0 || value != std::floor(value)) {
    return InvalidArgumentError("{}: expected a whole number >= 1 such as 1000 or 1e4, got '{}'",
                                what, text);
  }
  return static_cast<uint64_t>(value);
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

Result<std::pair<uint32_t, uint64_t>> ParseSyntheticSize(std::string_view text) {
  const size_t x = text.find_first_of("xX");
  if (x == std::string_view::npos) {
    return InvalidArgumentError(
        "--synthetic: expected FILESxCHUNKS (files, and chunks of each variable per file), "
        "e.g. 1000x1000, got '{}'",
        text);
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t files,
                            ParseCount(Trim(text.substr(0, x)), "--synthetic files"));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t chunks,
                            ParseCount(Trim(text.substr(x + 1)), "--synthetic chunks"));
  if (files > UINT32_MAX) {
    return InvalidArgumentError("--synthetic files: expected at most {}, got {}", UINT32_MAX,
                                files);
  }
  return std::pair<uint32_t, uint64_t>(static_cast<uint32_t>(files), chunks);
}

Result<std::vector<uint64_t>> ParseScaleList(std::string_view text) {
  std::vector<uint64_t> sizes;
  while (true) {
    const size_t comma = text.find(',');
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t n, ParseCount(Trim(text.substr(0, comma)), "--scale"));
    sizes.push_back(n);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return sizes;
}

namespace internal {

Status ValidateBenchOptions(const BenchOptions& o) {
  if (o.synthetic && !o.inputs.empty()) {
    return InvalidArgumentError("give data files or reference files, or --synthetic; not both");
  }
  if (!o.synthetic && o.inputs.empty()) {
    return InvalidArgumentError(
        "nothing to benchmark: give data files, folders or refs.json files, or --synthetic "
        "FILESxCHUNKS");
  }
  if (!o.scale.empty() && !o.synthetic) {
    return InvalidArgumentError("--scale needs --synthetic FILESxCHUNKS: it grows that set");
  }
  if (o.repeat == 0) return InvalidArgumentError("--repeat: expected at least 1, got 0");
  if (o.python_repeat == 0) {
    return InvalidArgumentError("--python-repeat: expected at least 1, got 0");
  }
  if (o.lookups == 0) return InvalidArgumentError("--lookups: expected at least 1, got 0");
  if (o.python && o.synthetic && o.synthetic->refs_only) {
    return InvalidArgumentError(
        "--compare-python needs data files to scan; drop --refs-only to generate NetCDF files");
  }
  if (o.xarray && o.synthetic && o.synthetic->refs_only) {
    return InvalidArgumentError(
        "--xarray-open reads values through the references; drop --refs-only to generate "
        "NetCDF files");
  }
  if (o.synthetic) {
    KERCHUNK_RETURN_IF_ERROR(ValidateNetcdfSeriesOptions(o.synthetic->series));
    if (o.synthetic->url_length != 0 && !o.synthetic->refs_only) {
      return InvalidArgumentError(
          "--url-length applies to generated reference sets (--refs-only); scanned files are "
          "named by their path");
    }
  }
  return OkStatus();
}

}  // namespace internal
}  // namespace kerchunk::bench
