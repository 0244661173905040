// `kerchunk verify` as a command: the library's VerifyFile, with a progress bar, the report
// written as text or JSON and the JUnit file.
#pragma once

#include <ostream>

#include "kerchunk/util/status.h"
#include "kerchunk/verify/report.h"
#include "kerchunk/verify/verify.h"

namespace kerchunk::verify {

/// VerifyFile (kerchunk/verify/verify.h), drawing a progress bar on a terminal unless
/// options.quiet (or options.progress is given), then writes the report to `out` (text or JSON,
/// options.format) and the JUnit report to options.junit ("-": `out`). The result is
/// VerifyFile's, or the error of writing the JUnit file.
Result<Report> RunVerify(const VerifyOptions& options, std::ostream& out);

}  // namespace kerchunk::verify
