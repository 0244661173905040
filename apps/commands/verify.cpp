#include "kerchunk/commands/verify.h"

#include "kerchunk/commands/progress_bar.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::verify {
namespace {

Status WriteOutputs(const Report& report, const VerifyOptions& options, std::ostream& out) {
  if (options.format == ReportFormat::kJson) {
    WriteJsonReport(report, options.max_report, out);
  } else {
    WriteTextReport(report, options.max_report, out);
  }
  if (options.junit == "-") {
    out << JunitReport(report);
  } else if (!options.junit.empty()) {
    KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(options.junit, JunitReport(report)));
  }
  return OkStatus();
}

}  // namespace

Result<Report> RunVerify(const VerifyOptions& options, std::ostream& out) {
  TerminalProgress bar(options.quiet);
  VerifyOptions with_progress = options;
  if (!with_progress.progress) with_progress.progress = &bar;
  KERCHUNK_ASSIGN_OR_RETURN(Report report, VerifyFile(with_progress));
  KERCHUNK_RETURN_IF_ERROR(WriteOutputs(report, options, out));
  return report;
}

}  // namespace kerchunk::verify
