// `kerchunk pack` as a command: a Kerchunk JSON file in, its packed file written atomically,
// and the summary for people.
#pragma once

#include <ostream>
#include <string>

#include "kerchunk/pack/pack.h"
#include "kerchunk/util/status.h"

namespace kerchunk::pack {

/// Reads any Kerchunk JSON file (see ReadKerchunkFile; "-": standard input), packs it, and
/// writes `output` atomically ("-": standard output): the compact container, or with
/// `readable` the JSON text. Nothing is written on error.
Result<PackSummary> PackFile(const std::string& input, const std::string& output,
                             const PackOptions& options = {});

/// Writes the summary for people: sizes in and out, the ratio, bytes per chunk reference and
/// where the bytes went (generators, verbatim keys, URLs); with `verbose`, also per generator
/// its variables, grid, order, length predictor and how regular its lengths are.
void WritePackSummary(const PackSummary& summary, std::ostream& out, bool verbose = false);

}  // namespace kerchunk::pack
