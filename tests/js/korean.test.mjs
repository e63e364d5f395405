// static/js/lang/korean.js: particles written as 이(가), 을(를), 은(는), 과(와), (으)로 take the
// form that fits the final sound of the word before them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { finalSound, particles } from "../../static/js/lang/korean.js";

test("final sound of Hangul syllables: none, ㄹ, or another consonant", () => {
  assert.equal(finalSound("커피"), ""); // 피: no final consonant
  assert.equal(finalSound("우유"), "");
  assert.equal(finalSound("얼음"), "C"); // 음: ㅁ
  assert.equal(finalSound("스팀"), "C");
  assert.equal(finalSound("물"), "ㄹ");
  assert.equal(finalSound(""), "");
});

test("digits are read in Sino-Korean", () => {
  assert.equal(finalSound("1"), "ㄹ"); // 일
  assert.equal(finalSound("2"), ""); // 이
  assert.equal(finalSound("3"), "ㅁ"); // 삼
  assert.equal(finalSound("10"), "ㅇ"); // the last digit, 0: 영
});

test("Latin names as Koreans say them; trailing punctuation is ignored", () => {
  assert.equal(finalSound("Paul"), "ㄹ");
  assert.equal(finalSound("Bram"), "C");
  assert.equal(finalSound("Jack"), "C");
  assert.equal(finalSound("Alice"), "");
  assert.equal(finalSound("Max"), "");
  assert.equal(finalSound("준.)"), "C");
});

test("each particle pair after a vowel and after a consonant", () => {
  assert.equal(particles("커피이(가)"), "커피가");
  assert.equal(particles("얼음이(가)"), "얼음이");
  assert.equal(particles("커피을(를)"), "커피를");
  assert.equal(particles("얼음을(를)"), "얼음을");
  assert.equal(particles("커피은(는)"), "커피는");
  assert.equal(particles("얼음은(는)"), "얼음은");
  assert.equal(particles("커피과(와)"), "커피와");
  assert.equal(particles("얼음과(와)"), "얼음과");
});

test("(으)로: 으로 after a consonant, 로 after a vowel or a final ㄹ", () => {
  assert.equal(particles("r1c3(으)로"), "r1c3으로"); // 삼: ㅁ
  assert.equal(particles("r1c2(으)로"), "r1c2로"); // 이: vowel
  assert.equal(particles("r1c1(으)로"), "r1c1로"); // 일: ㄹ
  assert.equal(particles("물(으)로"), "물로");
});

test("several particles in one string, text without any unchanged", () => {
  assert.equal(particles("준이(가) r2c3(으)로 이동해 커피을(를) 얻었습니다."),
    "준이 r2c3으로 이동해 커피를 얻었습니다.");
  assert.equal(particles("괄호 (없음)"), "괄호 (없음)");
});
