// Error bodies the real Rainbond console sent when it was run and measured (data of its recorded answers, copied as
// they came), and an unhandled error's 500 whose traceback text is our own (the recorded ones quote the console's
// source, which stays out of the project).

/** The console's envelope around a refusal it raised itself (its ServiceHandleException). */
const refusal = (code: number, msg: string, msgShow: string) => ({
  code,
  msg,
  msg_show: msgShow,
  data: { bean: {}, list: [] },
});

/** A DRF validation body: `err` maps each field (nested for nested serializers) to its messages, in Chinese. */
const validation = (err: Record<string, unknown>) => ({
  detail: "参数错误",
  err,
  code: 20400,
  error_type: "ValidationError",
});

/** An unhandled error: the exception's text in `msg`, a Python traceback in the human-facing `msg_show`. */
const unhandled = (errorType: string, text: string, traceback: string) => ({
  code: 10401,
  msg: text,
  msg_show: traceback,
  error_type: errorType,
  error_trace: `${errorType}: ${text}`,
  error_details: { args: [text], message: text, module: "builtins" },
});

export const consoleAnswers = {
  /** GET .../regions/{region}/apps for a team not opened in the region: 409. */
  teamNotOpened: refusal(2001, "the team is not initialized in the region", "团队未在该集群中初始化"),
  /** GET .../regions/nosuch/apps: 404. */
  regionNotFound: refusal(3000, "the region is not found", "集群不存在"),
  /** GET .../apps/999/services/{id}: 404. */
  appNotFound: refusal(404, "no found app", "应用不存在"),
  /** DELETE .../ports/{port} of a port with domains bound: 412. */
  portHasDomains: refusal(412, "contains custom domains", "该端口有自定义域名，请先解绑域名"),
  /** POST .../ports without is_inner_service: 400. */
  innerServiceRequired: validation({ is_inner_service: ["该字段是必填项。"] }),
  /** POST .../domains with a tcp member lacking default_ip: 400. */
  tcpDefaultIpRequired: validation({ tcp: { default_ip: ["该字段是必填项。"] } }),
  /** GET /regions/{name} of a plain-HTTP region: the console's own record fails its checks, 400. */
  regionCertificatesEmpty: validation({
    ssl_ca_cert: ["该字段不能为空。"],
    cert_file: ["该字段不能为空。"],
    key_file: ["该字段不能为空。"],
  }),
  /** POST .../httpdomains when the component's port is not open to the outside: 400, a body with no code. */
  outerPortClosed: { msg: "没有开启对外端口" },
  /** POST .../httpdomains while the region cannot be reached: 400. */
  regionUnreachable: refusal(
    10411,
    "MaxRetryErrorHTTPConnectionPool(host='127.0.0.1', port=18888): Max retries exceeded",
    "访问数据中心异常，请稍后重试",
  ),
  /** PUT .../ports/{port} change_port_alias without k8s_service_name: 500 (the traceback is our own text). */
  aliasCrash: unhandled(
    "TypeError",
    "object of type 'NoneType' has no len()",
    [
      "Traceback (most recent call last):",
      '  File "stand_in/views/ports.py", line 40, in put',
      "    result = rename_port(port, alias, service_name)",
      '  File "stand_in/services/ports.py", line 12, in rename_port',
      "    if len(service_name) > 63:",
      "TypeError: object of type 'NoneType' has no len()",
      "",
    ].join("\n"),
  ),
};
