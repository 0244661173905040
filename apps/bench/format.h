// Number formatting for the bench tables: counts with thousands separators, binary byte units,
// durations and rates with three significant digits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kerchunk::bench::internal {

/// 2900014 -> "2,900,014".
std::string Count(uint64_t n);
/// 1536 -> "1.50 KiB"; below 1 KiB "512 B".
std::string Bytes(double bytes);
/// 0.0123 -> "12.3 ms"; 2.1 -> "2.10 s"; 8.5e-7 -> "850 ns".
std::string Duration(double seconds);
/// 1.38e6 -> "1.38 M/s".
std::string Rate(double per_second);
/// Three significant digits: 0.8123 -> "0.812", 132.24 -> "132".
std::string Sig3(double value);

/// A plain-text table: a header row and rows of cells, the first column left-aligned and the
/// others right-aligned, columns separated by two spaces, each line indented by `indent`.
std::string TextTable(const std::vector<std::vector<std::string>>& rows, int indent = 2);

}  // namespace kerchunk::bench::internal
