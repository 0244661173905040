#include "bench/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kerchunk::bench::internal {

std::string Count(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Sig3(double value) {
  if (value == 0 || !std::isfinite(value)) return fmt::format("{}", value);
  const double magnitude = std::abs(value);
  if (magnitude >= 100) return fmt::format("{:.0f}", value);
  if (magnitude >= 10) return fmt::format("{:.1f}", value);
  if (magnitude >= 1) return fmt::format("{:.2f}", value);
  const int decimals = 2 - static_cast<int>(std::floor(std::log10(magnitude)));
  return fmt::format("{:.{}f}", value, decimals);
}

std::string Bytes(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  if (unit == 0) return fmt::format("{:.0f} B", bytes);
  return Sig3(bytes) + " " + kUnits[unit];
}

std::string Duration(double seconds) {
  if (seconds >= 1) return Sig3(seconds) + " s";
  if (seconds >= 1e-3) return Sig3(seconds * 1e3) + " ms";
  if (seconds >= 1e-6) return Sig3(seconds * 1e6) + " us";
  return Sig3(seconds * 1e9) + " ns";
}

std::string Rate(double per_second) {
  if (per_second >= 1e9) return Sig3(per_second / 1e9) + " G/s";
  if (per_second >= 1e6) return Sig3(per_second / 1e6) + " M/s";
  if (per_second >= 1e3) return Sig3(per_second / 1e3) + " k/s";
  return Sig3(per_second) + " /s";
}

std::string TextTable(const std::vector<std::vector<std::string>>& rows, int indent) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line(static_cast<size_t>(indent), ' ');
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line += "  ";
      const std::string pad(widths[c] - row[c].size(), ' ');
      line += c == 0 ? row[c] + pad : pad + row[c];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace kerchunk::bench::internal
