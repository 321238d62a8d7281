package io.agentoutcomes.app.redrive;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;

/**
 * What a redrive did, or on a dry run would do.
 *
 * @param redriveId        the redrive's id (null on a dry run)
 * @param dryRun           whether nothing was written
 * @param selection        the filters, as text
 * @param scanned          dead letters read
 * @param matched          of those, the ones the filters select
 * @param alreadyRedriven  of those, the ones an earlier redrive handled (skipped)
 * @param selected         of the rest, the ones this redrive handles: at most the limit
 * @param retries          retries re-issued to {@code retry-ready} (would be, on a dry run): one per task selected
 * @param superseded       selected dead letters of a task with a later one selected, recorded but not re-issued
 * @param leftOver         matched and not yet redriven, past the limit: a next run takes them
 * @param examples         the first few selected
 */
public record RedriveReport(String redriveId, boolean dryRun, String selection, long scanned, long matched,
                            long alreadyRedriven, int selected, int retries, int superseded, long leftOver,
                            List<Example> examples) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A selected dead letter, for the report. */
    public record Example(String taskId, String resultId, String agentId, String errorCode, String stopReason,
                          Instant stoppedAt, String deadLetter) {
    }

    /** The report as the HTTP API answers it. */
    public ObjectNode toJson() {
        ObjectNode json = JSON.createObjectNode();
        json.put("redriveId", redriveId).put("dryRun", dryRun).put("selection", selection).put("scanned", scanned)
                .put("matched", matched).put("alreadyRedriven", alreadyRedriven).put("selected", selected)
                .put("retries", retries).put("superseded", superseded).put("leftOver", leftOver);
        ArrayNode list = json.putArray("examples");
        for (Example example : examples) {
            list.addObject().put("taskId", example.taskId()).put("resultId", example.resultId())
                    .put("agentId", example.agentId()).put("errorCode", example.errorCode())
                    .put("stopReason", example.stopReason()).put("stoppedAt", example.stoppedAt().toString())
                    .put("deadLetter", example.deadLetter());
        }
        return json;
    }

    /** The report as the command line prints it. */
    public void print(PrintWriter out) {
        out.printf("%s: %s%n", dryRun ? "Dry run (nothing written)" : "Redrive " + redriveId, selection);
        out.printf("  dead letters read     %d%n", scanned);
        out.printf("  matching the filters  %d%n", matched);
        out.printf("  already redriven      %d (skipped)%n", alreadyRedriven);
        out.printf("  selected              %d%s%n", selected, leftOver == 0 ? "" : " (" + leftOver + " more past the limit: run again)");
        out.printf("  retries %s  %d to retry-ready%s%n", dryRun ? "to re-issue" : "re-issued  ", retries,
                superseded == 0 ? "" : " (" + superseded + " superseded by a later dead letter of the same task)");
        for (Example example : examples) {
            out.printf("    %s %s agent=%s error=%s stop=%s at %s (%s)%n", example.taskId(), example.resultId(),
                    example.agentId(), example.errorCode(), example.stopReason(), example.stoppedAt(), example.deadLetter());
        }
        out.flush();
    }
}
