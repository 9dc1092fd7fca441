"""The text of the demo workspace's documentation (read by demo/content.py).

A page is `(title, emoji, markdown, children)`. Links are written as GitBook writes them:
relative `.md` paths, `#anchors` and `.gitbook/assets/<file>`. A few are broken on purpose
(a missing page, a missing anchor, a missing file) so link analysis has something to find.
"""

from __future__ import annotations

from docdeck.server.demo import pages_reference as reference

Page = tuple[str, str | None, str, list["Page"]]

_AUTH = """# Authentication

Every request to the Northwind API carries a bearer token:

```bash
curl https://api.northwind.dev/v2/orders \\
  -H "Authorization: Bearer $NORTHWIND_TOKEN"
```

## Creating a token

Tokens are created in the dashboard under **Settings → API tokens**. A token has a *scope*
(`read`, `write` or `admin`) and an optional expiry date.

| Scope | May call | Typical use |
|-------|----------|-------------|
| `read` | every `GET` | dashboards, reporting |
| `write` | `GET`, `POST`, `PATCH` | integrations |
| `admin` | everything, including `DELETE` | provisioning scripts |

> [!WARNING]
> A token is shown once. Store it in a secret manager, never in a repository.

## Rotating tokens

Create the new token, deploy it, then revoke the old one. Both work during the overlap, so a
rotation needs no downtime. See [Rate limits](rate-limits.md#limits-per-token) for how limits
follow a rotated token.

## Errors

A missing or unknown token answers `401` with the body described in
[Errors](../reference/errors.md#error-body).
"""

_CONCEPTS = """# Concepts

- **Orders** hold line items and move through a [lifecycle](../guides/orders/order-lifecycle.md).
- **Customers** receive receipts and invoices.
- **Webhooks** push changes to you; you never need to poll.
- **Test mode** mirrors production without moving money.

> [!NOTE]
> Every object has an id with a prefix (`ord_`, `cus_`, `inv_`) so logs stay readable.
"""

_RATE = """# Rate limits

Requests are limited per token, not per IP address.

## Limits per token

- 600 requests per minute for `read` tokens
- 300 requests per minute for `write` and `admin` tokens
- bursts of up to 50 requests are absorbed

## When you hit a limit

The API answers `429 Too Many Requests` with a `Retry-After` header in seconds:

```python
import time
import httpx

def get_with_retry(client: httpx.Client, url: str) -> httpx.Response:
    while True:
        response = client.get(url)
        if response.status_code != 429:
            return response
        time.sleep(float(response.headers.get("Retry-After", "1")))
```

> [!TIP]
> The official SDKs retry for you; see [SDKs](../sdks/README.md).
"""

_QUICKSTART = """# Quickstart

Place your first order in five minutes.

1. [Create a token](authentication.md#creating-a-token) with the `write` scope.
2. Install the SDK for your language.
3. Create an order:

```javascript
import { Northwind } from "@northwind/sdk";

const client = new Northwind({ token: process.env.NORTHWIND_TOKEN });
const order = await client.orders.create({
  customer: "cus_8f2k1",
  items: [{ sku: "TEA-EARL-GREY", quantity: 12 }],
});
console.log(order.id, order.status);
```

4. Watch it move through the [order lifecycle](../guides/orders/order-lifecycle.md).

![Request flow](.gitbook/assets/request-flow.png)

Next: read about [webhooks](../guides/webhooks/README.md) to hear about changes as they happen.
"""

_ERRORS = """# Errors

Every error has the same body, whatever the endpoint.

## Error body

```json
{
  "error": {
    "code": 404,
    "message": "No order with id ord_123"
  }
}
```

## Status codes

| Status | Meaning | Retry? |
|-------:|---------|:------:|
| 400 | The request is invalid; the message names the field | no |
| 401 | Missing or unknown token | no |
| 403 | The token's scope does not allow this | no |
| 404 | No such resource | no |
| 409 | Conflicts with the resource's current state | after re-reading |
| 429 | Rate limited | yes, after `Retry-After` |
| 5xx | Our fault | yes, with backoff |

See also [Idempotency](idempotency.md) for safely retrying `POST` requests.
"""

_IDEMPOTENCY = """# Idempotency

`POST` requests accept an `Idempotency-Key` header. Sending the same key twice within 24
hours returns the first response instead of creating a second resource.

```go
req, _ := http.NewRequest("POST", "https://api.northwind.dev/v2/orders", body)
req.Header.Set("Idempotency-Key", uuid.NewString())
req.Header.Set("Authorization", "Bearer "+token)
```

Keys are scoped to the token. Use a fresh UUID per logical operation, and reuse it only
when retrying that operation.
"""


_WEBHOOKS = """# Webhooks

Northwind sends an HTTP `POST` to your endpoint when something happens to your data.

## Subscribing

Register an endpoint with the events you want:

```bash
curl -X POST https://api.northwind.dev/v2/webhooks \\
  -H "Authorization: Bearer $NORTHWIND_TOKEN" \\
  -d url=https://example.com/hooks/northwind \\
  -d "events[]=order.paid" -d "events[]=order.shipped"
```

## Delivery

Each delivery is retried with exponential backoff for up to 72 hours until your endpoint
answers `2xx`. Deliveries can arrive out of order; use the event's `created_at`.

![Webhook retries](../../.gitbook/assets/webhook-retries.png)
"""

_SIGNATURES = """# Verifying signatures

Every delivery carries a `Northwind-Signature` header: an HMAC-SHA256 of the raw body with
your endpoint's secret.

```python
import hashlib
import hmac

def verify(body: bytes, header: str, secret: str) -> bool:
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header)
```

```ruby
expected = OpenSSL::HMAC.hexdigest("SHA256", secret, request.raw_post)
Rack::Utils.secure_compare(expected, request.headers["Northwind-Signature"])
```

> [!CAUTION]
> Compare in constant time, and verify before parsing the JSON.

Event payloads are listed in [Event types](event-types.md).
"""

_EVENTS = """# Event types

| Event | Sent when |
|-------|-----------|
| `order.created` | an order is placed |
| `order.paid` | payment succeeded |
| `order.shipped` | a shipment got a tracking number |
| `order.cancelled` | the order was cancelled |
| `customer.updated` | a customer's email or name changed |

The retry schedule is explained in [Webhooks](README.md#delivery), and the old
`order.fulfilled` event is described in [Legacy events](legacy-events.md).
"""

_LIFECYCLE = """# Order lifecycle

An order moves through these states:

1. **pending**: created, waiting for payment
2. **paid**: payment captured
3. **shipped**: handed to a carrier
4. **delivered**: the carrier confirmed delivery

An order can be **cancelled** while `pending` or `paid`. Each change sends a webhook; see
[Event types](../webhooks/event-types.md).

- [x] Payment capture
- [x] Shipping labels
- [ ] Partial shipments (planned for Q3)
"""

_REFUNDS = """# Refunds

Refund a paid order in full or in part:

```bash
curl -X POST https://api.northwind.dev/v2/orders/ord_123/refunds \\
  -H "Authorization: Bearer $NORTHWIND_TOKEN" -d amount=1200
```

Refunds of shipped orders require the goods to be returned first. The state diagram is in
[Order lifecycle](order-lifecycle.md#missing-section).
"""

_PAGINATION = """# Pagination

List endpoints return at most `limit` items (default 50, maximum 200) and a `next_cursor`.

```typescript
let cursor: string | undefined;
do {
  const page = await client.orders.list({ limit: 200, cursor });
  page.items.forEach(handle);
  cursor = page.next_cursor;
} while (cursor);
```

Cursors stay valid while items are added; they expire after 24 hours.
"""

_SDK = """# SDKs

Official SDKs wrap authentication, retries and pagination:

| Language | Package | Minimum version |
|----------|---------|-----------------|
| JavaScript | `@northwind/sdk` | Node 18 |
| Python | `northwind` | 3.10 |
| Go | `github.com/northwind/northwind-go` | 1.21 |

Community libraries for Ruby and PHP are listed on the dashboard (open it in the app:
[Northwind dashboard](/app/orgs/northwind)).
"""


_MIGRATING = """# Migrating to v2

v2 renames `fulfilled` to `shipped` and moves amounts to integer cents.

| v1 | v2 |
|----|----|
| `total: "12.00"` | `total: 1200` |
| `status: fulfilled` | `status: shipped` |
| `GET /v1/orders` | `GET /v2/orders` |

Test the migration against test mode first: see
[Testing your integration](testing-your-integration.md).
"""

_TESTING = """# Testing your integration

Tokens starting with `nw_test_` talk to test mode: no money moves, no parcel ships.

```bash
export NORTHWIND_TOKEN=nw_test_4f9c...
npm test
```

Trigger any webhook event from the dashboard to test your endpoint's
[signature verification](webhooks/verifying-signatures.md).
"""

_VERSIONING = """# Versioning

The major version is in the path (`/v2`). Additive changes (new fields, new endpoints, new
enum values) ship without a new version, so clients must ignore fields they do not know.
"""


def _sdk_page(language: str, install: str, snippet: str, fence: str) -> str:
    return f"""# {language}

## Install

```bash
{install}
```

## First call

```{fence}
{snippet}
```

Configuration options are described in [Authentication](../getting-started/authentication.md).
"""


_GLOSSARY = """# Glossary

- **SKU**: stock keeping unit, a product's unique code.
- **Cursor**: an opaque position in a list; see [Pagination](guides/pagination.md).
- **Idempotency key**: see [Idempotency](reference/idempotency.md).
- **Scope**: what a token may do; see
  [Authentication](getting-started/authentication.md#creating-a-token).
"""

_CHANGELOG_POINTER = """# Changelog

The API's changes are published in the Release Notes space. Breaking changes are announced
90 days ahead by email to every admin.

Deprecated: `GET /v1/orders`; see [Migrating to v2](guides/migrating-to-v2.md).
"""

API_DOCS: list[Page] = [
    (
        "Getting started",
        "🚀",
        "# Getting started\n\nEverything you need before your first request.\n",
        [
            ("Quickstart", "⚡", _QUICKSTART, []),
            ("Concepts", "💡", _CONCEPTS, []),
            ("Authentication", "🔑", _AUTH, []),
            ("Rate limits", "⏱️", _RATE, []),
        ],
    ),
    (
        "Guides",
        "🧭",
        "# Guides\n\nTask-oriented walkthroughs.\n",
        [
            (
                "Orders",
                "📦",
                "# Orders\n\nPlacing, tracking and refunding orders.\n",
                [
                    ("Order lifecycle", None, _LIFECYCLE, []),
                    ("Refunds", None, _REFUNDS, []),
                ],
            ),
            (
                "Webhooks",
                "🪝",
                _WEBHOOKS,
                [
                    ("Verifying signatures", "🔏", _SIGNATURES, []),
                    ("Event types", None, _EVENTS, []),
                ],
            ),
            ("Pagination", "📄", _PAGINATION, []),
            ("Migrating to v2", "🧳", _MIGRATING, []),
            ("Testing your integration", "🧪", _TESTING, []),
        ],
    ),
    (
        "Reference",
        "📚",
        "# Reference\n\nEvery resource and endpoint of the v2 API.\n",
        [
            ("Errors", "⚠️", _ERRORS, []),
            ("Idempotency", None, _IDEMPOTENCY, []),
            ("Versioning", None, _VERSIONING, []),
            (
                "Resources",
                None,
                "# Resources\n\nThe objects of the API.\n",
                [
                    ("Orders", None, reference.ORDERS, []),
                    ("Customers", None, reference.CUSTOMERS, []),
                    ("Products", None, reference.PRODUCTS, []),
                    ("Invoices", None, reference.INVOICES, []),
                    ("Shipments", None, reference.SHIPMENTS, []),
                    ("Webhook endpoints", None, reference.WEBHOOK_ENDPOINTS, []),
                ],
            ),
        ],
    ),
    (
        "SDKs",
        "🧰",
        _SDK,
        [
            (
                "JavaScript",
                None,
                _sdk_page(
                    "JavaScript",
                    "npm install @northwind/sdk",
                    'const client = new Northwind({ token: "..." });\n'
                    "const me = await client.account.retrieve();",
                    "javascript",
                ),
                [],
            ),
            (
                "Python",
                None,
                _sdk_page(
                    "Python",
                    "pip install northwind",
                    'from northwind import Client\n\nclient = Client(token="...")\n'
                    "print(client.account.retrieve())",
                    "python",
                ),
                [],
            ),
            (
                "Go",
                None,
                _sdk_page(
                    "Go",
                    "go get github.com/northwind/northwind-go",
                    'client := northwind.New("...")\nme, err := client.Account.Retrieve(ctx)',
                    "go",
                ),
                [],
            ),
        ],
    ),
    ("Glossary", "📖", _GLOSSARY, []),
    ("Changelog", "🗞️", _CHANGELOG_POINTER, []),
]
