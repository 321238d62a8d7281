package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Success;
import java.util.List;
import java.util.Locale;

/**
 * What scrubbing an accepted record's free text costs, in µs per record, for four kinds of record (not a test: a
 * loop in a main, run by hand; see docs/ingestion.md for the command and the figures).
 */
public final class FreeTextScrubCost {
    private static final String DATA = "{\"answer\":\"The invoice total is 1,284.50 EUR, VAT 21 % included.\","
            + "\"files\":[\"invoice-2026-03.pdf\",\"summary.md\"],\"model\":\"gpt-4o-mini\",\"confidence\":0.93}";
    private static final String RATE_LIMITED = "Rate limit reached for gpt-4o in organization org-abc on tokens per min "
            + "(TPM): Limit 30000, Used 29650, Requested 1200. Please try again in 1.7s. Visit "
            + "https://platform.openai.com/account/rate-limits to learn more.";
    private static final String UNAUTHORIZED = "Error code: 401 - {'error': {'message': 'Incorrect API key provided: "
            + "sk-proj-AbCd****wXyZ. You can find your API key at https://platform.openai.com/account/api-keys.', "
            + "'type': 'invalid_request_error', 'param': None, 'code': 'invalid_api_key'}} (request headers: "
            + "Authorization: Bearer sk-proj-Xq7vR2mN8kL4pT6wY1zA3bC5dE7fG9hJ, User-Agent: OpenAI/Python 1.51.0)";

    private FreeTextScrubCost() {
    }

    public static void main(String[] args) {
        AgentResult bare = record(Success.newBuilder().build());
        AgentResult success = record(Success.newBuilder().setData(DATA).setWarnings(List.of("slow response")).build());
        Failure limited = failure(RATE_LIMITED);
        Failure unauthorized = failure(UNAUTHORIZED);
        AgentResult rateLimited = record(limited);
        AgentResult leaked = record(unauthorized);
        for (int round = 0; round < 3; round++) {
            report("no free text", round, () -> FreeTextScrubber.scrub(bare));
            report("success, 180 characters of JSON data, no trigger word", round, () -> FreeTextScrubber.scrub(success));
            report("failure, 190 characters, tokens but no trigger word", round,
                    () -> FreeTextScrubber.scrub(rateLimited));
            report("failure, the 401 message above with two keys to redact", round, () -> {
                unauthorized.getError().setMessage(UNAUTHORIZED);
                FreeTextScrubber.scrub(leaked);
            });
        }
    }

    private static AgentResult record(Object outcome) {
        return AgentResult.newBuilder().setResultId("r").setAgentId("a").setTaskId("t").setOutcome(outcome).build();
    }

    private static Failure failure(String message) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("x").setMessage(message).build()).build();
    }

    private static void report(String what, int round, Runnable scrub) {
        int records = 300_000;
        long start = System.nanoTime();
        for (int i = 0; i < records; i++) {
            scrub.run();
        }
        double micros = (System.nanoTime() - start) / 1_000.0 / records;
        System.out.println(String.format(Locale.ROOT, "round %d  %-75s %8.3f µs per record", round, what, micros));
    }
}
