package io.agentoutcomes.topology.pricing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Model prices by provider, read from genai-prices' format (docs/analytics.md, "Prices"): the table shipped in the jar
 * ({@value #SHIPPED}), optionally preceded by a user's own file in the same format, whose providers are looked up
 * first. Lookup follows genai-prices' {@code calcPrice}: the provider by id, then by its {@code provider_match} rule
 * (a provider the table does not know falls back to the models' own {@code model_match}, where genai-prices gives up);
 * the model by the first rule that matches the lower-cased name, then in the provider's fallback providers, then with
 * a date written {@code 20240620} rewritten {@code 2024-06-20}; the prices in force at the result's time. Thread-safe; what a name resolves to is remembered (up to 10 000 names).
 */
public final class PriceTable {
    /** The shipped table's resource. */
    public static final String SHIPPED = "/prices/genai-prices.json";
    private static final Pattern COMPACT_DATE = Pattern.compile("-(20\\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])(?=-|:|$)");
    private static final JsonMapper JSON = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    /** How many provider and model names the table remembers resolved; past it, it starts over. */
    private static final int MAX_RESOLVED = 10_000;

    private final String source;
    private final List<Provider> providers;
    /**
     * Names already resolved, with their prices read: a record is priced by a map lookup, not by a scan of the
     * table's rules and a parse of its prices (each stream thread prices every result with usage).
     */
    private final Map<Name, Optional<Resolved>> resolved = new ConcurrentHashMap<>();

    /** A provider and model as a result names them: the key of {@link #resolved}, built without copying either. */
    private record Name(String provider, String model) {
    }

    private record Provider(String id, Predicate<String> providerMatch, Predicate<String> modelMatch,
                            List<String> fallbacks, List<Model> models) {
    }

    private record Model(String id, Predicate<String> match, List<Conditional> prices) {
    }

    /** Prices with the constraint under which they apply (null: always). */
    private record Conditional(JsonNode constraint, JsonNode prices) {
    }

    /** A model found for a provider, with the prices of each of its conditions read once. */
    private record Resolved(Model model, List<ModelPrices> prices) {
        /** The prices in force at a time: the last condition that applies, else the first prices. */
        ModelPrices at(Instant at) {
            for (int i = model.prices().size() - 1; i >= 0; i--) {
                JsonNode constraint = model.prices().get(i).constraint();
                if (constraint == null || applies(constraint, at)) {
                    return prices.get(i);
                }
            }
            return prices.get(0);
        }
    }

    private PriceTable(String source, List<Provider> providers) {
        this.source = source;
        this.providers = List.copyOf(providers);
    }

    /** The table shipped in the jar, read once. */
    public static PriceTable shipped() {
        return Shipped.TABLE;
    }

    /** Read on first use only. */
    private static final class Shipped {
        static final PriceTable TABLE = readShipped();
    }

    private static PriceTable readShipped() {
        try (InputStream in = PriceTable.class.getResourceAsStream(SHIPPED)) {
            if (in == null) {
                throw new IllegalStateException("the price table " + SHIPPED + " is missing from the classpath");
            }
            return read(JSON.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The shipped table preceded by a user's file in the same format: its providers are looked up first. */
    public static PriceTable withOverrides(Path userFile) {
        try {
            PriceTable user = read(JSON.readTree(Files.readAllBytes(userFile)));
            PriceTable shipped = shipped();
            List<Provider> all = new ArrayList<>(user.providers);
            all.addAll(shipped.providers);
            return new PriceTable(userFile + " over " + shipped.source, all);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the price file " + userFile, e);
        }
    }

    static PriceTable read(JsonNode table) {
        List<Provider> providers = new ArrayList<>();
        for (JsonNode p : table.get("providers")) {
            List<Model> models = new ArrayList<>();
            for (JsonNode m : p.get("models")) {
                List<Conditional> prices = new ArrayList<>();
                JsonNode node = m.get("prices");
                if (node.isArray()) {
                    node.forEach(c -> prices.add(new Conditional(c.get("constraint"), c.get("prices"))));
                } else {
                    prices.add(new Conditional(null, node));
                }
                models.add(new Model(m.get("id").asText(), NameMatch.of(m.get("match")), prices));
            }
            List<String> fallbacks = new ArrayList<>();
            p.path("fallback_model_providers").forEach(f -> fallbacks.add(f.asText()));
            providers.add(new Provider(p.get("id").asText(), NameMatch.of(p.get("provider_match")),
                    NameMatch.of(p.get("model_match")), fallbacks, models));
        }
        return new PriceTable(table.path("source").asText("unnamed"), providers);
    }

    /** Where the table came from: its source and version. */
    public String source() {
        return source;
    }

    /** The prices of a model of a provider (null or blank: found by the model's name) at a time, if the table has them. */
    public Optional<ModelPrices> find(String provider, String model, Instant at) {
        if (model == null || model.isBlank()) {
            return Optional.empty();
        }
        Name key = new Name(provider, model);
        Optional<Resolved> found = resolved.get(key);
        if (found == null) {
            found = resolve(provider, model);
            if (resolved.size() >= MAX_RESOLVED) {
                resolved.clear();
            }
            resolved.put(key, found);
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ModelPrices prices = found.get().at(at);
        return prices.input() != null ? Optional.of(prices) : Optional.empty();
    }

    private Optional<Resolved> resolve(String provider, String model) {
        String name = model.trim().toLowerCase(Locale.ROOT);
        Optional<Provider> found = provider == null || provider.isBlank() ? Optional.empty() : provider(provider);
        Optional<Provider> chosen = found.isPresent() ? found
                : providers.stream().filter(p -> p.modelMatch().test(name)).findFirst();
        return chosen.flatMap(p -> model(p, name).or(() -> withDashedDate(name).flatMap(dated -> model(p, dated)))
                .map(m -> new Resolved(m, m.prices().stream().map(c -> prices(p, m, c.prices())).toList())));
    }

    private Optional<Provider> provider(String provider) {
        String id = provider.trim().toLowerCase(Locale.ROOT);
        return providers.stream().filter(p -> p.id().equals(id)).findFirst()
                .or(() -> providers.stream().filter(p -> p.providerMatch().test(id)).findFirst());
    }

    private Optional<Model> model(Provider provider, String name) {
        Optional<Model> own = provider.models().stream().filter(m -> m.match().test(name)).findFirst();
        if (own.isPresent()) {
            return own;
        }
        for (String fallback : provider.fallbacks()) {
            Optional<Model> found = providers.stream().filter(p -> p.id().equals(fallback)).findFirst()
                    .flatMap(p -> p.models().stream().filter(m -> m.match().test(name)).findFirst());
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** {@code claude-3-5-sonnet-20240620} as {@code claude-3-5-sonnet-2024-06-20}, if it has such a valid date. */
    static Optional<String> withDashedDate(String name) {
        Matcher matcher = COMPACT_DATE.matcher(name);
        StringBuilder out = new StringBuilder();
        boolean changed = false;
        while (matcher.find()) {
            String replacement = matcher.group();
            try {
                LocalDate.of(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)), Integer.parseInt(matcher.group(3)));
                replacement = "-" + matcher.group(1) + "-" + matcher.group(2) + "-" + matcher.group(3);
                changed = true;
            } catch (DateTimeException invalid) {
                // not a date: left as written
            }
            matcher.appendReplacement(out, replacement);
        }
        matcher.appendTail(out);
        return changed ? Optional.of(out.toString()) : Optional.empty();
    }

    private static ModelPrices prices(Provider provider, Model model, JsonNode prices) {
        return new ModelPrices(provider.id(), model.id(), TokenPrice.of(prices.get("input_mtok")),
                TokenPrice.of(prices.get("output_mtok")), TokenPrice.of(prices.get("cache_read_mtok")),
                TokenPrice.of(prices.get("cache_write_mtok")));
    }

    /** genai-prices' constraints: from a start date (UTC midnight), or within a time of day (UTC, may wrap midnight). */
    private static boolean applies(JsonNode constraint, Instant at) {
        if (constraint.has("start_date")) {
            return !at.isBefore(LocalDate.parse(constraint.get("start_date").asText()).atStartOfDay(ZoneOffset.UTC).toInstant());
        }
        int now = at.atOffset(ZoneOffset.UTC).toLocalTime().toSecondOfDay();
        int start = secondOfDayUtc(constraint.get("start_time").asText());
        int end = secondOfDayUtc(constraint.get("end_time").asText());
        return end < start ? now >= start || now < end : now >= start && now < end;
    }

    private static int secondOfDayUtc(String time) {
        OffsetTime parsed = OffsetTime.parse(time);
        return Math.floorMod(parsed.toLocalTime().toSecondOfDay() - parsed.getOffset().getTotalSeconds(), 86_400);
    }
}
