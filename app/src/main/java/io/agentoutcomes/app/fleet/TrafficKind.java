package io.agentoutcomes.app.fleet;

/** The kinds of first attempt the traffic generator draws, with their weights out of 100. */
enum TrafficKind {
    AVRO_SUCCESS(14), AVRO_TIMEOUT(8), AVRO_RATE_LIMIT(6), FLAT_SUCCESS(10), FLAT_RATE_LIMIT(6), FLAT_DAILY_LIMIT(3),
    FLAT_SERVER_ERROR(4), VAT_SUCCESS(9), VAT_REFUSAL(3), VAT_INVALID_OUTPUT(3), VAT_IN_PROGRESS(3),
    REVIEW_SUCCESS(5), REVIEW_FAILURE(3), REVIEW_SKIPPED(3), JOB(12), CONTINUATION(8);

    final int weight;

    TrafficKind(int weight) {
        this.weight = weight;
    }
}
