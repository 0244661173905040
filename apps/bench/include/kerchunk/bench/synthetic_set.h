// Generated reference sets for `kerchunk bench --synthetic ... --refs-only`: the index of a
// daily NetCDF-4 archive, at sizes (10 million references and more) whose data files would not
// fit on a laptop's disk.
//
// The set comes from the realistic generator of refs/synthetic_refs.h (file layout, drifting and
// jittering compressed lengths, land chunks never written, gaps before index nodes), shaped to
// the same knobs as WriteNetcdfSeries: chunks per file, variables, the share of chunks that are
// all fill (and so share one modal length: the gfactor), and the length of the URLs.
#pragma once

#include <cstdint>

#include "kerchunk/bench/netcdf_series.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::bench {

/// Compressed length given to all-fill chunks: zlib level 4 of 181 x 360 shuffled float32
/// values all equal to 1e20, as measured with zlib.
inline constexpr uint64_t kFillChunkLength = 285;

/// Builds the set: options.files files of one time step, each variable with
/// options.chunks_per_file chunks of 181 x 360 points laid out on SquarestGrid; the last
/// variable leaves a share options.missing of its spatial chunks unwritten; data chunks become
/// all-fill (length kFillChunkLength, the following chunks of the file moving up so that the
/// layout stays contiguous) with the probability that gives options.gfactor; URLs are
/// lengthened or shortened to `url_length` characters (0: as generated, ~110) keeping the file
/// name. Errors: invalid options (see ValidateNetcdfSeriesOptions) or a url_length too short
/// for the file names (InvalidArgument).
Result<ReferenceSet> MakeSyntheticReferenceSet(const NetcdfSeriesOptions& options,
                                               uint32_t url_length = 0);

}  // namespace kerchunk::bench
