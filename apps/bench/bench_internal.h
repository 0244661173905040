// Pieces of RunBench shared between its source files.
#pragma once

#include <filesystem>
#include <string>

#include "kerchunk/bench/bench.h"
#include "kerchunk/bench/report.h"

namespace kerchunk::bench::internal {

/// The checks of RunBench's options that the command line cannot express (see bench.h).
Status ValidateBenchOptions(const BenchOptions& options);

/// Writes the scaling plot of `report` (one set per size) as SVG to `path`: time of each step
/// and sizes against the number of references, both on log scales.
Status WriteScalingPlot(const BenchReport& report, const std::string& path);

}  // namespace kerchunk::bench::internal
