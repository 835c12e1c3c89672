"""Regenerate resources/samples/ (tabular samples) with evaleditor's own writers.

    .venv/bin/python scripts/make_samples.py

(sdk_agent_cases.json is written by the SDK JSON writer's own tests' helper; see tests/io.)
"""

from __future__ import annotations

import json
from pathlib import Path

from evaleditor.io import write_table

SAMPLES = Path(__file__).resolve().parent.parent / "resources" / "samples"


def calls(*pairs: tuple[str, dict]) -> str:
    return json.dumps([{"name": n, "arguments": a} for n, a in pairs], ensure_ascii=False)


SINGLE = (["Question", "Expected_Answer", "context"], [
    ["What is the return window for online orders?", "30 days from delivery, with the receipt or order number.",
     "Returns policy v3: online orders may be returned within 30 days of delivery."],
    ["Can I change the shipping address after ordering?", "Yes, until the order ships; use Orders > Edit address.",
     "Orders can be edited until status is SHIPPED."],
    ["Do you ship to Canada?", "Yes. Delivery takes 5-8 business days; duties are paid at checkout.", ""],
    ["How do I reset my password?", "Use 'Forgot password' on the sign-in page; the link is valid for 1 hour.", ""],
    ["Is the 007 bundle still available?", "No, the 007 bundle was discontinued in March.", "Catalogue note: SKU 007"],
    ["What does =SUM(A1:A3) do in the exported report?", "It is shown as text; the report never runs formulas.", ""],
    ["Which payment methods are accepted?", "Visa, Mastercard, PayPal and gift cards.", ""],
    ["How long is the warranty on headphones?", "Two years from the date of purchase.", "Warranty table: audio 24 months"],
    ["Can I combine two discount codes?", "No, one code per order.", ""],
    ["Where is my refund?", "Refunds reach the card 3-5 business days after we receive the item.", ""],
])

MULTI = (["session_id", "turn_id", "question", "answer", "expected_tool_calls", "notes"], [
    ["order-help-01", "1", "Hi, I ordered a kettle last week and it has not arrived.",
     "Sorry about that! Could you give me the order number?", "", ""],
    ["order-help-01", "2", "It's 48213.", "Thanks. Order 48213 is in transit and due tomorrow.",
     calls(("lookup_order", {"order_id": "48213"})), "order id kept as text"],
    ["order-help-01", "3", "Can you send it to my office instead?",
     "I can. What is the office address?", "", ""],
    ["order-help-01", "4", "12 King Street, Leeds LS1 2HL.", "Done: the delivery address is now 12 King Street.",
     calls(("update_address", {"order_id": "48213", "address": "12 King Street, Leeds LS1 2HL"})), ""],
    ["refund-02", "1", "I want to return headphones that stopped working.",
     "I'm sorry. They are under warranty; shall I start a return?", "", ""],
    ["refund-02", "2", "Yes please.", "Return started. I emailed you a prepaid label.",
     calls(("create_return", {"order_id": "50877", "reason": "defective"})), ""],
    ["refund-02", "3", "How long until I get my money back?",
     "3-5 business days after the parcel reaches us.", "", ""],
    ["refund-02", "4", "Can I get a replacement instead?", "Yes, I switched the return to a replacement.",
     calls(("update_return", {"return_id": "R-50877", "resolution": "replacement"})), ""],
    ["refund-02", "5", "Thanks!", "You're welcome. Anything else?", "", ""],
])

ZH = (["会话ID", "请求顺序", "问题", "答案"], [
    ["", "", "你们的退货期限是多久？", "自签收之日起 30 天内可退货。"],
    ["", "", "可以开具增值税专用发票吗？", "可以，请在订单页面填写开票信息。"],
    ["售后-001", "1", "我买的耳机左耳没有声音。", "抱歉给您带来不便，请提供订单号。"],
    ["售后-001", "2", "订单号是 20261130007。", "已查到订单，耳机在保修期内，可以免费换新。"],
    ["售后-001", "3", "换新需要多久？", "收到退回的耳机后 3 个工作日内寄出新品。"],
    ["物流-002", "1", "我的包裹显示已签收，但我没收到。", "请先确认是否由门卫或快递柜代收。"],
    ["物流-002", "2", "都问过了，没有。", "已为您提交丢件调查，24 小时内回复。"],
])

# The demo: a file with the mistakes people make, for the editor to show and fix.
DEMO = (["Session_ID", "turn_id", "question", "answer", "expected_tool_calls", "notes"], [
    ["order-help-01", "1", "Hi, my kettle has not arrived.", "Could you give me the order number?", "", ""],
    ["order-help-01", "3", "It's 48213.", "Order 48213 is in transit and due tomorrow.",
     "[{'name': 'lookup_order', 'arguments': {'order_id': '48213'}}]", "single quotes"],
    ["order-help-01 ", "4", "Please send it to my office.", "What is the office address?", "", "space in id"],
    ["refund-02", "2", "Yes please.", "Return started. I emailed you a label.",
     '{"name": "create_return", "args": {"order_id": "50877"}}', "sorted by mistake"],
    ["refund-02", "1", "I want to return broken headphones.", "They are under warranty; start a return?", "", ""],
    ["", "", "Do you ship to Canada?", "Yes, in 5-8 business days.", "", "NA"],
    ["", "", "Do you ship to Canada?", "Yes.", "", ""],
    ["", "", "", "An answer with no question", "", ""],
    ["REFUND-02", "1", "Is this the same conversation?", "No: ids differ in case.", "", ""],
])


def main() -> None:
    SAMPLES.mkdir(parents=True, exist_ok=True)
    write_table(SAMPLES / "ground_truth_single_turn.csv", *SINGLE)
    write_table(SAMPLES / "ground_truth_multiturn.xlsx", *MULTI)
    write_table(SAMPLES / "evaluation_set_zh.xlsx", *ZH)
    write_table(SAMPLES / "demo_messy_multiturn.xlsx", *DEMO)
    print("wrote", ", ".join(sorted(p.name for p in SAMPLES.iterdir() if not p.name.startswith("_"))))


if __name__ == "__main__":
    main()
