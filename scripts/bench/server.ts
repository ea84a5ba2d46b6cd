// @ts-nocheck -- typed in the move to TypeScript (issue 22)
// The server of the per-call benchmark, run as a child process (fork) so that its work and its garbage never share
// an event loop or a heap with the clients being measured, and the two processes can use the two cores.
// Listens on 127.0.0.1 only, on a free port; answers
//   GET  <component path>          the spec's example of the component record (getComponent)
//   POST <component path>/ports    the spec's example of a Port (addComponentPort), after checking the request
// with bodies taken from generated/openapi.json. Any other request, or a request without the token or with another
// body, gets a 4xx (counted as `bad`), which makes the client under test throw: all contenders must do the same work.
import { createServer } from "node:http";
import { bodies, paths, token } from "./fixtures.ts";

const componentBody = Buffer.from(JSON.stringify(bodies.component));
const portBody = Buffer.from(JSON.stringify(bodies.port));
const getPath = paths.get;
const postPath = paths.post;

const counts = { get: 0, post: 0, bad: 0 };

function answer(res, status, body) {
  res.writeHead(status, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    if (req.headers.authorization !== token) return (counts.bad++, answer(res, 401, Buffer.from('{"msg":"no token"}')));
    if (req.method === "GET" && req.url === getPath) return (counts.get++, answer(res, 200, componentBody));
    if (req.method === "POST" && req.url === postPath) {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = null;
      }
      if (body?.port === "8080" && body.protocol === "http" && /json/.test(req.headers["content-type"] ?? "")) {
        counts.post++;
        return answer(res, 200, portBody);
      }
    }
    counts.bad++;
    answer(res, 400, Buffer.from(`{"msg":"unexpected ${req.method} ${req.url}"}`));
  });
});

if (process.send) {
  server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
  process.on("message", (msg) => {
    if (msg === "counts") process.send({ counts });
  });
  process.on("disconnect", () => server.close(() => process.exit(0)));
  server.keepAliveTimeout = 60_000;
}
