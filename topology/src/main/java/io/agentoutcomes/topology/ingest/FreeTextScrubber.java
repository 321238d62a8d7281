package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.TOO_LARGE;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.ContinuationEvaluation;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.Success;
import java.util.ArrayList;
import java.util.List;

/**
 * Credential-like text ({@link CredentialScrubber}) replaced in every free-text field of an accepted record, however
 * it arrived (JSON normalized by ingestion, or Avro written straight onto an input topic), before any stage or topic
 * sees it: an error message quoting {@code Authorization: Bearer ...}, a reply or warning quoting an API key, a
 * node's reason or state. Identities and labels (ids, codes, model and provider names) are not free text and are
 * kept as they came. A field without any of the scrubber's trigger words costs one pass over its characters; a
 * record without free text costs nothing.
 * <p>
 * {@value CredentialScrubber#REDACTED} can be longer than what it replaces ({@code pwd=1}), so a record full of short
 * credential-like values could grow past what its outputs may carry: a record that redacting would make more than
 * {@value #MAX_GROWTH_CHARS} characters longer is refused, {@code too-large}, naming the field where it went over.
 */
public final class FreeTextScrubber {
    /** How many characters redacting may add to one record: well within the Avro topics' allowance of 16 KiB. */
    public static final int MAX_GROWTH_CHARS = 4096;

    private int growth;

    private FreeTextScrubber() {
    }

    /** Scrubs the result's free text in place. */
    public static void scrub(AgentResult result) {
        FreeTextScrubber text = new FreeTextScrubber();
        result.setReply(text.scrub("reply", result.getReply()));
        result.setSessionState(text.scrub("sessionState", result.getSessionState()));
        result.setMetadata(text.scrub("metadata", result.getMetadata()));
        RateLimitState rateLimit = result.getRateLimit();
        if (rateLimit != null) {
            rateLimit.setRetryAfterHeader(text.scrub("rateLimit.retryAfterHeader", rateLimit.getRetryAfterHeader()));
            List<RateLimitWindow> windows = rateLimit.getWindows();
            for (int i = 0; i < windows.size(); i++) {
                windows.get(i).setHeader(text.scrub("rateLimit.windows", i, ".header", windows.get(i).getHeader()));
            }
        }
        Object outcome = result.getOutcome();
        if (outcome instanceof Success success) {
            success.setData(text.scrub("outcome.data", success.getData()));
            success.setContent(text.scrub("outcome.content", success.getContent()));
            success.setWarnings(text.scrub("outcome.warnings", success.getWarnings()));
            text.findings("outcome.findings", success.getFindings());
        } else if (outcome instanceof Failure failure) {
            ErrorInfo error = failure.getError();
            error.setMessage(text.scrub("outcome.error.message", error.getMessage()));
            failure.setData(text.scrub("outcome.data", failure.getData()));
            failure.setContent(text.scrub("outcome.content", failure.getContent()));
            failure.setWarnings(text.scrub("outcome.warnings", failure.getWarnings()));
            text.findings("outcome.partialFindings", failure.getPartialFindings());
        } else if (outcome instanceof InProgress progress) {
            progress.setProgress(text.scrub("outcome.progress", progress.getProgress()));
            progress.setWarnings(text.scrub("outcome.warnings", progress.getWarnings()));
        } else if (outcome instanceof Skipped skipped) {
            skipped.setReason(text.scrub("outcome.reason", skipped.getReason()));
        }
    }

    /** Scrubs the event's payload results, state and reason in place. */
    public static void scrub(NodeFinished event) {
        FreeTextScrubber text = new FreeTextScrubber();
        event.setPayloadResults(text.scrub("payloadResults", event.getPayloadResults()));
        event.setState(text.scrub("state", event.getState()));
        event.setReason(text.scrub("reason", event.getReason()));
    }

    /** Scrubs each evaluation's reason and context in place. */
    public static void scrub(ContinuationEvaluated event) {
        FreeTextScrubber text = new FreeTextScrubber();
        List<ContinuationEvaluation> evaluations = event.getEvaluations();
        for (int i = 0; i < evaluations.size(); i++) {
            ContinuationEvaluation evaluation = evaluations.get(i);
            evaluation.setReason(text.scrub("evaluations", i, ".reason", evaluation.getReason()));
            evaluation.setContext(text.scrub("evaluations", i, ".context", evaluation.getContext()));
        }
    }

    private void findings(String name, List<Finding> findings) {
        for (int i = 0; i < findings.size(); i++) {
            Finding finding = findings.get(i);
            finding.setMessage(scrub(name, i, ".message", finding.getMessage()));
            finding.setSuggestion(scrub(name, i, ".suggestion", finding.getSuggestion()));
            finding.setMetadata(scrub(name, i, ".metadata", finding.getMetadata()));
        }
    }

    /** The list itself when no element changed (it may be immutable), else a copy with the changed elements. */
    private List<String> scrub(String name, List<String> texts) {
        List<String> scrubbed = null;
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            String clean = scrub(name, i, "", text);
            if (clean != text && scrubbed == null) {
                scrubbed = new ArrayList<>(texts);
            }
            if (scrubbed != null) {
                scrubbed.set(i, clean);
            }
        }
        return scrubbed == null ? texts : scrubbed;
    }

    private String scrub(String name, String text) {
        return scrub(name, -1, "", text);
    }

    /** The text scrubbed; {@code name}, {@code [index]} (when not negative) and {@code member} name its field. */
    private String scrub(String name, int index, String member, String text) {
        if (text == null) {
            return null;
        }
        String scrubbed = CredentialScrubber.scrub(text);
        if (scrubbed != text) {
            growth += scrubbed.length() - text.length();
            if (growth > MAX_GROWTH_CHARS) {
                String field = index < 0 ? name + member : name + "[" + index + "]" + member;
                throw new InvalidInputException(TOO_LARGE, field + ": redacting credential-like text would make the record "
                        + growth + " characters longer than it came, more than " + MAX_GROWTH_CHARS);
            }
        }
        return scrubbed;
    }
}
