// Encodes and decodes one record with two independent schema-registry clients, against a registry at
// REGISTRY_URL. Reads a JSON request from the file named by the first argument:
//   { "topic": "...", "schema": "<avro schema text>", "record": { ... }, "projectBytes": "<hex>" }
// and prints one JSON line: each client's schema id, its encoding of the record (hex), and its decoding of the
// project serde's bytes. The Java test (NpmClientsInteropTest) compares them with the project's own.
import { readFileSync } from 'node:fs';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType } from '@confluentinc/schemaregistry';

const url = process.env.REGISTRY_URL;
if (!url) {
  console.error('REGISTRY_URL is not set');
  process.exit(2);
}
const request = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const subject = `${request.topic}-value`;
const projectBytes = Buffer.from(request.projectBytes, 'hex');

// Buffers and bigints do not survive JSON.stringify as they are.
const plain = (value) => JSON.parse(JSON.stringify(value, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));

const kafkajs = new SchemaRegistry({ host: url });
const { id: kafkajsId } = await kafkajs.register({ type: SchemaType.AVRO, schema: request.schema }, { subject });
const kafkajsBytes = await kafkajs.encode(kafkajsId, request.record);
const kafkajsDecoded = await kafkajs.decode(projectBytes);

const client = new SchemaRegistryClient({ baseURLs: [url] });
const confluentId = await client.register(subject, { schemaType: 'AVRO', schema: request.schema }, false);
const serializer = new AvroSerializer(client, SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true });
const confluentBytes = await serializer.serialize(request.topic, request.record);
const deserializer = new AvroDeserializer(client, SerdeType.VALUE, {});
const confluentDecoded = await deserializer.deserialize(request.topic, projectBytes);

console.log(JSON.stringify({
  kafkajs: { id: kafkajsId, bytes: kafkajsBytes.toString('hex'), decoded: plain(kafkajsDecoded) },
  confluent: { id: confluentId, bytes: confluentBytes.toString('hex'), decoded: plain(confluentDecoded) },
}));
